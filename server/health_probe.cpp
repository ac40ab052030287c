// npc-healthcheck: exits 0 when the npcd at ADDR (default 127.0.0.1:50051) reports SERVING
// through grpc.health.v1, 1 otherwise. Used as the container HEALTHCHECK.
#include <chrono>
#include <iostream>

#include <grpcpp/grpcpp.h>

#include "grpc/health/v1/health.grpc.pb.h"

int main(int argc, char** argv) {
  const std::string address = argc > 1 ? argv[1] : "127.0.0.1:50051";
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(3));
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&ctx, request, &response);
  if (!status.ok()) {
    std::cerr << "npc-healthcheck: " << address << ": " << status.error_message() << "\n";
    return 1;
  }
  const bool serving = response.status() == grpc::health::v1::HealthCheckResponse::SERVING;
  std::cout << (serving ? "SERVING" : "NOT_SERVING") << "\n";
  return serving ? 0 : 1;
}
