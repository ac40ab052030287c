// The one place where core Status codes become gRPC status codes (STYLE.md #13).
#pragma once

#include <grpcpp/support/status.h>

#include "base/status.h"

namespace npc {

// kInvalidArgument -> INVALID_ARGUMENT, kNotFound -> NOT_FOUND, kAlreadyExists ->
// ALREADY_EXISTS, kFailedPrecondition -> FAILED_PRECONDITION, kResourceExhausted ->
// RESOURCE_EXHAUSTED, kUnavailable -> UNAVAILABLE, kOk -> OK. The message is kept as is.
grpc::Status toGrpcStatus(const Status& status);

}  // namespace npc
