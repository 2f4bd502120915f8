import bcrypt from "bcryptjs";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72; // bcrypt reads at most 72 bytes

const COST = Number(process.env.BCRYPT_COST ?? 10);

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
