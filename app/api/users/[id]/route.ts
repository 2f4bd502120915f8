// GET/PUT /api/users/<id>: one user; a user edits their own profile.
// DELETE /api/users/<id>: the user (or an admin) disables the account (lib/domain/accounts.ts).
import { deleteAccount } from "@/lib/handlers/account-routes";
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { users } from "@/lib/resources/users";

export const { GET, PUT } = memberRoutes(users);
export const DELETE = deleteAccount;

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
