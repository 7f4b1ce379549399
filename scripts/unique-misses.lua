-- wrk script: every request a new URL, so that every one is a miss.
--
--   wrk -t2 -c64 -d8s --latency -s scripts/unique-misses.lua http://127.0.0.1:18090
--
-- PREFIX is the path before the file (default /http/127.0.0.1:18081, a proxy path to an
-- origin on port 18081; "" for a cache that takes origin paths as they are, such as nginx
-- proxy_cache); FILE is the file (default /tiny.bin).
local next_thread = 0

setup = function(thread)
  thread:set("thread_id", next_thread)
  next_thread = next_thread + 1
end

local counter = 0
local prefix = os.getenv("PREFIX") or "/http/127.0.0.1:18081"
local file = os.getenv("FILE") or "/tiny.bin"

request = function()
  counter = counter + 1
  return wrk.format("GET", prefix .. file .. "?u=" .. os.time() .. "-" .. thread_id .. "-" .. counter)
end
