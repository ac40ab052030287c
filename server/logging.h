// Logging set-up: spdlog to stdout, as coloured text or as JSON lines.
#pragma once

#include <string>

namespace npc {

// format: "text" or "json". In json mode every line is one JSON object
// {"ts","lvl","logger","msg"}; messages are escaped through jsonMessage().
void setupLogging(const std::string& level, const std::string& format);
// Whether setupLogging chose JSON lines.
bool jsonLogs();
// Escapes `text` as a JSON string literal (with quotes) in json mode, and returns it
// unchanged in text mode, so call sites can log free text either way.
std::string logText(const std::string& text);

}  // namespace npc
