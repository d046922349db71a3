# Removes the .py files under PACKAGE_DIR (the build tree's copy of msmlir)
# that are not in SOURCES (the package's sources, relative paths joined by
# ","): a module moved or deleted in python/msmlir must not stay importable
# from the build tree and hide a broken import.
cmake_policy(SET CMP0057 NEW)
string(REPLACE "," ";" sources "${SOURCES}")
file(GLOB_RECURSE copies RELATIVE ${PACKAGE_DIR} ${PACKAGE_DIR}/*.py)
foreach(copy ${copies})
  if(NOT copy IN_LIST sources)
    message(STATUS "Removing stale msmlir/${copy}")
    file(REMOVE ${PACKAGE_DIR}/${copy})
  endif()
endforeach()
