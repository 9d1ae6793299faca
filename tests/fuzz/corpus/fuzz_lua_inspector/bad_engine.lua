#!python name=p
