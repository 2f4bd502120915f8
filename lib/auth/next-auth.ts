import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authenticateWithinLimits } from "@/lib/auth/authenticate-user";
import { AppError } from "@/lib/errors";
import { clientAddress } from "@/lib/net/peer-address";
import { keys } from "./keys";
import { endSession, sessionAlive, startSession } from "./user-sessions";

/** A sign-in refused by the abuse limits (the sign-in page says so instead of "invalid password"). */
export class RateLimited extends CredentialsSignin {
  code = "rate_limited";
}

// Auth.js for the browser, mounted under /auth, on the same users table. Sessions are JWT cookies that
// lib/auth/actor.ts also reads, so our pages can call /api with them.
export const { handlers, auth, signIn, signOut } = NextAuth(async () => ({
  basePath: "/auth",
  secret: (await keys()).authSecret,
  trustHost: true,
  session: { strategy: "jwt" },
  pages: { signIn: "/sign-in" },
  // The JWT cookie names a user_sessions row (sid): made at sign-in, checked whenever the session is read,
  // deleted at sign-out, so a copied cookie dies with its session and a password change ends it.
  callbacks: {
    jwt: async ({ token, user }) => {
      if (user?.id) return { ...token, sid: await startSession(Number(user.id)) };
      const sid = token.sid;
      return typeof sid === "string" && (await sessionAlive(sid, Number(token.sub))) ? token : null;
    },
  },
  events: {
    signOut: async (message) => {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await endSession(sid);
    },
  },
  // A wrong password is an expected outcome, not a server error worth a stack trace.
  logger: {
    error: (e: Error) =>
      void (e.name === "CredentialsSignin" || (e as { type?: string }).type === "CredentialsSignin" ? undefined : console.error(e)),
  },
  providers: [
    Credentials({
      credentials: { login: { label: "Login or email" }, password: { label: "Password", type: "password" } },
      authorize: async (c, request) => {
        let user: Awaited<ReturnType<typeof authenticateWithinLimits>>;
        try {
          user = await authenticateWithinLimits(String(c?.login ?? ""), String(c?.password ?? ""), clientAddress(request));
        } catch (err) {
          if (err instanceof AppError && err.code === "rate_limited") throw new RateLimited();
          throw err;
        }
        return user ? { id: String(user.id), name: user.displayName, email: user.email } : null;
      },
    }),
  ],
}));
