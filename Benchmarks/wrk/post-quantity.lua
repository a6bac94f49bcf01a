-- wrk script: the cart's quantity stepper, posted over and over by one session.
--
--   wrk -s post-quantity.lua URL -- COOKIE CSRF [PRODUCT [LOW HIGH]]
--
-- Each request is POST /cart/items/PRODUCT/quantity with
-- quantity=N&csrf=CSRF&return_to=/cart, N alternating between LOW and HIGH (default 2 and
-- 3) so every post really changes the cart: commit, publish to the session's event
-- streams, 303. COOKIE is the value of the quickcart_session cookie; CSRF the token
-- scraped from the session's cart page (name="csrf" value="…").

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "percentiles.lua")

local path, headers, bodies
local counter = 0

init = function(args)
   local cookie, token = args[1], args[2]
   if cookie == nil or token == nil then
      error("usage: wrk -s post-quantity.lua URL -- COOKIE CSRF [PRODUCT [LOW HIGH]]")
   end
   local product, low, high = args[3] or "1", args[4] or "2", args[5] or "3"
   path = "/cart/items/" .. product .. "/quantity"
   headers = {
      ["Cookie"] = "quickcart_session=" .. cookie,
      ["Content-Type"] = "application/x-www-form-urlencoded",
   }
   bodies = {
      "quantity=" .. low .. "&csrf=" .. token .. "&return_to=/cart",
      "quantity=" .. high .. "&csrf=" .. token .. "&return_to=/cart",
   }
end

request = function()
   counter = counter + 1
   return wrk.format("POST", path, headers, bodies[counter % 2 + 1])
end
