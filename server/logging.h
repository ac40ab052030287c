// Logging set-up: spdlog to stdout, as coloured text or as JSON lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace npc {

// format: "text" or "json". In json mode every line is one JSON object
// {"ts","lvl","logger","msg", ...fields}; messages are escaped through logText()/logEvent().
void setupLogging(const std::string& level, const std::string& format);
// Whether setupLogging chose JSON lines.
bool jsonLogs();
// Escapes `text` as a JSON string literal (with quotes) in json mode, and returns it
// unchanged in text mode, so call sites can log free text either way.
std::string logText(const std::string& text);

// One figure of a log line: a tick, an agent, a client, a duration.
struct LogField {
  using Value = std::variant<int64_t, uint64_t, double, bool, std::string>;
  template <class T>
  LogField(std::string k, const T& v) : key(std::move(k)), value(toValue(v)) {}
  std::string key;
  Value value;

 private:
  template <class T>
  static Value toValue(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      return v;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      return static_cast<int64_t>(v);
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
      return static_cast<uint64_t>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<double>(v);
    } else {
      return std::string(v);
    }
  }
};

// A log line that carries figures. Text mode prints `text` as it is (it reads the figures
// already). JSON mode prints "msg": `event` — a short, stable name ("status", "rpc",
// "tick overrun") — and each figure as a field of the line's object, so log pipelines
// filter and chart them without parsing text:
//   {"ts":"...","lvl":"warn","logger":"npcd","msg":"tick overrun","tick":4210,"overruns":3}
std::string logEvent(std::string_view event, const std::string& text,
                     const std::vector<LogField>& fields);
// The same for a given mode (what logEvent returns in it), for tests.
std::string formatLogEvent(bool json, std::string_view event, const std::string& text,
                           const std::vector<LogField>& fields);

}  // namespace npc
