import nodemailer, { type Transporter } from "nodemailer";

// Outgoing mail (password resets). SMTP_URL (smtp://user:pass@host:587, smtps://… for TLS) names the
// server; MAIL_FROM the sender. Without SMTP_URL a message is written to the server log instead, so a
// development or test instance shows the link it would have mailed.

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const g = globalThis as unknown as { quorumMailer?: { url: string; transport: Transporter } };

function transport(url: string): Transporter {
  if (g.quorumMailer?.url !== url) g.quorumMailer = { url, transport: nodemailer.createTransport(url) };
  return g.quorumMailer.transport;
}

export const mailFrom = () => process.env.MAIL_FROM ?? "Quorum <no-reply@localhost>";

/** Sends one message; throws when the SMTP server refuses it (the caller decides what the user sees). */
export async function sendMail(mail: Mail): Promise<void> {
  const url = process.env.SMTP_URL;
  if (!url) {
    console.info(`[mail] (no SMTP_URL: not sent) To: ${mail.to}\n[mail] Subject: ${mail.subject}\n${mail.text.replace(/^/gm, "[mail] ")}`);
    return;
  }
  await transport(url).sendMail({ from: mailFrom(), to: mail.to, subject: mail.subject, text: mail.text });
}
