# Writes OUTPUT, a C++ source holding every SCHEMA_DIR/*.schema.json as a string constant,
# and embeddedSchemaText() to look one up by its stem. Run by core/CMakeLists.txt with
# cmake -P, so the daemon carries its schemas and never reads them at run time.
file(GLOB schemas "${SCHEMA_DIR}/*.schema.json")
list(SORT schemas)
set(body "// Generated from config/schema/*.schema.json by core/base/embed_schemas.cmake.\n")
string(APPEND body "#include <string_view>\n\nnamespace npc {\n\n")
string(APPEND body "std::string_view embeddedSchemaText(std::string_view stem) {\n")
foreach(schema ${schemas})
  get_filename_component(name "${schema}" NAME)
  string(REPLACE ".schema.json" "" stem "${name}")
  file(READ "${schema}" text)
  string(APPEND body "  if (stem == \"${stem}\") return R\"npcdschema(${text})npcdschema\";\n")
endforeach()
string(APPEND body "  return {};\n}\n\n}  // namespace npc\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
