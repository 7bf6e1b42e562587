# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DNAME=symbol -P SeisEmbedFile.cmake: FILE's bytes as a C++ array
# (`extern const unsigned char NAME[]; extern const std::size_t NAME_size;`), so that a binary carries them.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" length)
math(EXPR size "${length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes
                     "${bytes}")
get_filename_component(source "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${source} by cmake/SeisEmbedFile.cmake.\n#include <cstddef>\n"
     "extern const unsigned char ${NAME}[] = {\n${bytes}};\n"
     "extern const std::size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
