// GET/PUT /engine/workflows/<id>: a workflow's decision-engine configuration.
import { showWorkflow, updateWorkflow } from "@/lib/engine/http/engine-routes";

export const GET = showWorkflow;
export const PUT = updateWorkflow;
