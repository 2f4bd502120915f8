-- CreateTable
CREATE TABLE "engine_inbox" (
    "id" BIGSERIAL NOT NULL,
    "classification_id" INTEGER NOT NULL,

    CONSTRAINT "engine_inbox_pkey" PRIMARY KEY ("id")
);
