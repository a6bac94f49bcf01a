-- wrk script: prints one parseable line with throughput and latency percentiles when the
-- run is done. Used alone (wrk -s percentiles.lua) or loaded by the other scripts here.
--
--   BENCH requests=… duration_us=… rps=… bytes=… p50_us=… p90_us=… p99_us=… max_us=…
--         errors_connect=… errors_read=… errors_write=… errors_status=… errors_timeout=…
--
-- errors_status counts answers with a status of 400 or more (wrk's rule), so a 303 or a
-- 304 is a success and a 403 (say, a stale CSRF token) is not.

done = function(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      "BENCH requests=%d duration_us=%d rps=%.1f bytes=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d "
         .. "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6), summary.bytes,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
