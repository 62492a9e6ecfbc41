-- Rate-limit counters skip the write-ahead log: every API request bumps one row per caller, and a
-- logged update waits for a WAL flush while holding that row, which capped one busy caller at a few
-- hundred requests per second. After a crash the counters start from zero, which only forgets up to
-- an hour of counts.
ALTER TABLE "rate_limits" SET UNLOGGED;
