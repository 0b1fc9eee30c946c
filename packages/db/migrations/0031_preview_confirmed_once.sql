-- A batch preview is confirmed once (decision 031): the confirmed run names its preview, and no two runs name the
-- same one. confirmRun also locks the preview and says which run confirmed it; this index holds it whatever calls.
CREATE UNIQUE INDEX "batch_runs_source_run_idx" ON "batch_runs" USING btree ("source_run_id") WHERE "batch_runs"."source_run_id" is not null;
