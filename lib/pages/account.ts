import { db } from "@/lib/db";

// The settings page: the signed-in user's own fields it edits (the same ones /api/me answers).

export async function loadSettings(userId: number) {
  return db().user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      login: true,
      email: true,
      displayName: true,
      languages: true,
      globalEmailCommunication: true,
      projectEmailCommunication: true,
      betaEmailCommunication: true,
    },
  });
}
