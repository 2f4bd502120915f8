// /auth/*: Auth.js (next-auth) endpoints for browser sign-in.
import { handlers } from "@/lib/auth/next-auth";

export const { GET, POST } = handlers;
