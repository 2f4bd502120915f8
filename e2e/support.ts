// Small helpers the specs use to prepare data through the HTTP API (the same calls any client makes).
import { expect, type APIRequestContext } from "@playwright/test";
import { ADMIN_LOGIN, ADMIN_PASSWORD, PUBLIC_CLIENT_ID } from "./env";

export const API_ACCEPT = "application/vnd.api+json; version=1";

let counter = 0;
/** A name no earlier run (or other test in this run) has used: letters, digits and underscores only. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}

export interface NewUser {
  login: string;
  email: string;
  password: string;
  display_name: string;
}

export function newUser(prefix = "e2e"): NewUser {
  const login = uniqueName(prefix);
  return { login, email: `${login}@example.org`, password: "correct horse battery", display_name: `Tester ${login}` };
}

/** POST /users (registration); returns the new user's id. */
export async function registerUser(request: APIRequestContext, user: NewUser): Promise<string> {
  const res = await request.post("/users", { data: { user }, headers: { Accept: "application/json" } });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return String(body.users[0].id);
}

/** An access token from POST /oauth/token (password grant with the first-party client). */
export async function accessToken(request: APIRequestContext, login = ADMIN_LOGIN, password = ADMIN_PASSWORD): Promise<string> {
  const res = await request.post("/oauth/token", { data: { grant_type: "password", client_id: PUBLIC_CLIENT_ID, login, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = await res.json();
  expect(body.access_token).toBeTruthy();
  return body.access_token as string;
}

export interface ProjectInput {
  display_name: string;
  description?: string;
  private?: boolean;
}

/** POST /api/projects with a bearer token; returns the created project. */
export async function createProject(request: APIRequestContext, token: string, input: ProjectInput): Promise<{ id: string; display_name: string }> {
  const res = await request.post("/api/projects", {
    headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
    data: { projects: { primary_language: "en", description: `About ${input.display_name}`, ...input } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return body.projects[0];
}
