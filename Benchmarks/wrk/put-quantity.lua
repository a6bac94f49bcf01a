-- wrk script: the API's quantity change, sent over and over by one app's client.
--
--   wrk -s put-quantity.lua URL -- TOKEN [LOW HIGH]
--
-- Each request is PUT URL (/api/v1/cart/lines/PRODUCT) with {"quantity": N}, N alternating
-- between LOW and HIGH (default 2 and 3) so every request really changes the cart: commit,
-- publish to the shopper's event streams, 200 with the cart as JSON. TOKEN is the bearer
-- token from POST /api/v1/clients.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "percentiles.lua")

local headers, bodies
local counter = 0

init = function(args)
   local token = args[1]
   if token == nil then
      error("usage: wrk -s put-quantity.lua URL -- TOKEN [LOW HIGH]")
   end
   local low, high = args[2] or "2", args[3] or "3"
   headers = {
      ["Authorization"] = "Bearer " .. token,
      ["Content-Type"] = "application/json",
   }
   bodies = {
      '{"quantity":' .. low .. '}',
      '{"quantity":' .. high .. '}',
   }
end

request = function()
   counter = counter + 1
   return wrk.format("PUT", nil, headers, bodies[counter % 2 + 1])
end
