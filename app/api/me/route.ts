// GET /api/me: the token's user, with every field of the contract's User table.
import { showMe } from "@/lib/handlers/account-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = showMe;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
