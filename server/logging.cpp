#include "logging.h"

#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace npc {

namespace {
bool g_json = false;
}

void setupLogging(const std::string& level, const std::string& format) {
  g_json = format == "json";
  auto logger = spdlog::stdout_color_mt("npcd");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
  if (g_json) {
    // spdlog 1.10 has no JSON formatter and does not escape %v: the message is escaped by
    // logText() before it gets here, so the pattern only adds the envelope.
    spdlog::set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%f%z","lvl":"%l","logger":"%n","msg":%v})");
  } else {
    spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  }
  spdlog::flush_on(spdlog::level::info);
}

bool jsonLogs() { return g_json; }

std::string logText(const std::string& text) {
  return g_json ? nlohmann::json(text).dump() : text;
}

std::string formatLogEvent(bool json, std::string_view event, const std::string& text,
                           const std::vector<LogField>& fields) {
  if (!json) return text;
  // The pattern closes the object after %v: this is `"msg","key":value,...`.
  std::string line = nlohmann::json(std::string(event)).dump();
  for (const LogField& f : fields) {
    line += ',';
    line += nlohmann::json(f.key).dump();
    line += ':';
    line += std::visit([](const auto& v) { return nlohmann::json(v).dump(); }, f.value);
  }
  return line;
}

std::string logEvent(std::string_view event, const std::string& text,
                     const std::vector<LogField>& fields) {
  return formatLogEvent(g_json, event, text, fields);
}

}  // namespace npc
