-- CreateTable
CREATE TABLE "worker_leases" (
    "worker_id" TEXT NOT NULL,
    "heartbeat_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_leases_pkey" PRIMARY KEY ("worker_id")
);

-- CreateIndex
CREATE INDEX "worker_leases_heartbeat_at_idx" ON "worker_leases"("heartbeat_at");
