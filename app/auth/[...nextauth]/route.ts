// /auth/*: Auth.js (next-auth) endpoints for browser sign-in.
import { handlers } from "@/lib/auth/next-auth";
import { declareScope } from "@/lib/http/route-scope";

// Browser sign-in and its session: no bearer token is involved.
export const GET = declareScope("none", handlers.GET);
export const POST = declareScope("none", handlers.POST);
