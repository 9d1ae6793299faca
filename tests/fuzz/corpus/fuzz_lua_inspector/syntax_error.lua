#!lua name=s
local function (
