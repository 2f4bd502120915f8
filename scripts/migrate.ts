// npm run db:migrate: applies committed migrations to DATABASE_URL (or the embedded database in DATA_DIR)
// and ensures the bootstrap records (public OAuth application, ADMIN_LOGIN admin).
import "./require-node";
import { withDatabase } from "./with-database";

await withDatabase(async () => {});
