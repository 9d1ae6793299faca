#!lua name=l
while true do end
