# Writes the diagnostic documentation (docs/diagnostics.md, docs/diagnostics/*.md) into a C++
# include file, so that SARIF rules and editor hovers carry the same text users read.
# Usage: cmake -DROOT=<repo> -DOUTPUT=<file.inc> -P embed_docs.cmake
file(GLOB pages RELATIVE "${ROOT}" "${ROOT}/docs/diagnostics.md" "${ROOT}/docs/diagnostics/*.md")
list(SORT pages)
set(body "// Generated from the diagnostic docs by analysis/diagnostics/embed_docs.cmake.\n")
foreach(page IN LISTS pages)
  file(READ "${ROOT}/${page}" text)
  string(APPEND body "{\"${page}\", R\"relaxdoc(${text})relaxdoc\"},\n")
endforeach()
# Only rewrite when the text changed, so that unrelated builds do not recompile the catalogue.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL body)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${body}")
