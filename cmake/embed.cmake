# cmake/embed.cmake — script mode: write IN as a C byte array named SYM into OUT.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(LENGTH "${hex}" n)
math(EXPR n "${n} / 2")
file(WRITE ${OUT} "/* generated from ${IN} by cmake/embed.cmake; do not edit */\n"
  "const unsigned char ${SYM}[] = {${body}0x00};\n"
  "const unsigned long ${SYM}_len = ${n};\n")
