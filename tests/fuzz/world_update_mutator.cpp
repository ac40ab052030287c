#include "world_update_mutator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace npc::fuzz {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

// Ids of the demo world (config/demo.json) and the players of its scripted game, so that
// updates reach agents, objects and places that exist.
constexpr uint64_t kIds[] = {0, 1, 2, 1001, 1101, 1201, 1301, 1401, 1501, 1502, 1601, 1602,
                             2101, 2102, 5001, 7, 1ull << 63, ~0ull};
constexpr double kNumbers[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, 60.0, 1e4, -1e4, 1e30, -1e30,
                               1e300, 3.4e38, 1e-300, 4.9e-324,
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN()};
constexpr int64_t kIntegers[] = {0, 1, -1, 2, 7, 255, 256, 65535, 65536, 1 << 30,
                                 std::numeric_limits<int32_t>::max(),
                                 std::numeric_limits<int32_t>::min()};
const char* const kNames[] = {"", "villager", "baker", "guard", "wolf", "raoul_demo",
                              "square", "bakery", "guard_post", "forest", "Go", "MoveTo",
                              "Take", "Drop", "Give", "Wait", "Talk", "Die", "Land",
                              "Cooking/Mix", "footstep", "gunshot", "generic", "OnEnemySeen",
                              "flowers", "bread", "min", "s", "m", "player", "npc", "object"};

template <typename T, size_t N>
const T& pick(const T (&values)[N], std::mt19937_64& rng) {
  return values[rng() % N];
}

std::string randomString(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0: return std::string(300 + rng() % 2000, 'x');  // past the name limits
    case 1: {  // printable: proto3 refuses to parse strings that are not UTF-8
      std::string s(rng() % 12, ' ');
      for (char& c : s) c = static_cast<char>(' ' + rng() % 95);
      return s;
    }
    default: return pick(kNames, rng);
  }
}

void setScalar(Message& m, const FieldDescriptor* f, std::mt19937_64& rng) {
  const Reflection* r = m.GetReflection();
  const bool repeated = f->is_repeated();
  const int64_t integer = rng() % 3 ? pick(kIntegers, rng) : static_cast<int64_t>(rng());
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT64: {
      const uint64_t v = rng() % 4 ? pick(kIds, rng) : rng();
      repeated ? r->AddUInt64(&m, f, v) : r->SetUInt64(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT64:
      repeated ? r->AddInt64(&m, f, integer) : r->SetInt64(&m, f, integer);
      break;
    case FieldDescriptor::CPPTYPE_UINT32: {
      const auto v = static_cast<uint32_t>(integer);
      repeated ? r->AddUInt32(&m, f, v) : r->SetUInt32(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      const auto v = static_cast<int32_t>(integer);
      repeated ? r->AddInt32(&m, f, v) : r->SetInt32(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      const double v = pick(kNumbers, rng);
      repeated ? r->AddDouble(&m, f, v) : r->SetDouble(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      const double d = pick(kNumbers, rng);
      constexpr double kMax = std::numeric_limits<float>::max();
      const float v = std::isfinite(d) && std::fabs(d) > kMax ? static_cast<float>(d > 0 ? kMax : -kMax)
                                                             : static_cast<float>(d);
      repeated ? r->AddFloat(&m, f, v) : r->SetFloat(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      const bool v = rng() & 1;
      repeated ? r->AddBool(&m, f, v) : r->SetBool(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* e = f->enum_type();
      const int v = rng() % 4 ? e->value(static_cast<int>(rng() % e->value_count()))->number()
                              : static_cast<int>(integer);
      repeated ? r->AddEnumValue(&m, f, v) : r->SetEnumValue(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      const std::string v = randomString(rng);
      repeated ? r->AddString(&m, f, v) : r->SetString(&m, f, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;  // handled by mutateMessage
  }
}

}  // namespace

std::vector<v1::WorldUpdate> decodeUpdates(const uint8_t* data, size_t size) {
  std::vector<v1::WorldUpdate> updates;
  size_t at = 0;
  while (at + 2 <= size && updates.size() < kMaxUpdatesPerInput) {
    const size_t length = std::min<size_t>(data[at] | (size_t{data[at + 1]} << 8), size - at - 2);
    v1::WorldUpdate update;
    if (update.ParseFromArray(data + at + 2, static_cast<int>(length))) {
      updates.push_back(std::move(update));
    }
    at += 2 + length;
  }
  return updates;
}

std::string encodeUpdates(const std::vector<v1::WorldUpdate>& updates) {
  std::string out;
  for (const v1::WorldUpdate& update : updates) {
    std::string bytes = update.SerializeAsString();
    if (bytes.size() > 0xffff) continue;
    out += static_cast<char>(bytes.size() & 0xff);
    out += static_cast<char>(bytes.size() >> 8);
    out += bytes;
  }
  return out;
}

void mutateMessage(Message& message, std::mt19937_64& rng, int depth) {
  const auto* descriptor = message.GetDescriptor();
  if (descriptor->field_count() == 0) return;
  const FieldDescriptor* f = descriptor->field(static_cast<int>(rng() % descriptor->field_count()));
  const Reflection* r = message.GetReflection();
  if (rng() % 10 == 0) {
    r->ClearField(&message, f);
    return;
  }
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
    if (f->is_repeated() && r->FieldSize(message, f) > 0 && rng() % 2) {
      r->RemoveLast(&message, f);  // then add a fresh value below
    }
    setScalar(message, f, rng);
    return;
  }
  if (depth > 4) return;
  if (!f->is_repeated()) {
    mutateMessage(*r->MutableMessage(&message, f), rng, depth + 1);
    return;
  }
  const int n = r->FieldSize(message, f);
  Message* child = n == 0 || rng() % 3 == 0 ? r->AddMessage(&message, f)
                                              : r->MutableRepeatedMessage(&message, f, static_cast<int>(rng() % n));
  mutateMessage(*child, rng, depth + 1);
}

}  // namespace npc::fuzz
