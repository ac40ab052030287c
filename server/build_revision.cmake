cmake_minimum_required(VERSION 3.25)
# Script mode (cmake -P), run by the npcd_build_revision target on every build: writes
# OUTPUT with the project VERSION and the git revision of SOURCE_DIR. configure_file
# leaves OUTPUT untouched when nothing changed, so an unchanged tree rebuilds nothing.
# Inputs: SOURCE_DIR, OUTPUT, VERSION, and REVISION (non-empty: used as is).
if(NOT REVISION)
  set(REVISION "unknown")
  find_program(GIT_EXECUTABLE git)
  if(GIT_EXECUTABLE)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE head RESULT_VARIABLE head_rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(head_rc EQUAL 0 AND head)
      set(REVISION ${head})
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain
                              --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE status_rc ERROR_QUIET)
      if(status_rc EQUAL 0 AND changes)
        string(APPEND REVISION "-dirty")
      endif()
    endif()
  endif()
endif()
set(NPCD_BUILD_VERSION ${VERSION})
set(NPCD_BUILD_REVISION ${REVISION})
file(WRITE ${OUTPUT}.in
     "#pragma once\n#define NPCD_BUILD_VERSION \"@NPCD_BUILD_VERSION@\"\n"
     "#define NPCD_BUILD_REVISION \"@NPCD_BUILD_REVISION@\"\n")
configure_file(${OUTPUT}.in ${OUTPUT} @ONLY)
