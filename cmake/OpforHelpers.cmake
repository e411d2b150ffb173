# cmake/OpforHelpers.cmake — small functions shared by the library folders.

# opfor_embed(TARGET_SRC_VAR SYMBOL FILE): turns FILE into a C source defining
#   const unsigned char SYMBOL[]; const unsigned long SYMBOL_len;
# (NUL-terminated, so text files can be used as C strings), and appends it to TARGET_SRC_VAR.
function(opfor_embed out_var symbol file)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/embed_${symbol}.c)
  add_custom_command(
    OUTPUT ${gen}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${gen} -DSYM=${symbol}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    COMMENT "Embedding ${file}")
  set(${out_var} ${${out_var}} ${gen} PARENT_SCOPE)
endfunction()
