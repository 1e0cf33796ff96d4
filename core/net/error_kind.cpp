#include "core/net/http_types.h"

namespace lb::net {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::None:
      return "none";
    case ErrorKind::Connect:
      return "connect";
    case ErrorKind::Tls:
      return "tls";
    case ErrorKind::HttpStatus:
      return "http_status";
    case ErrorKind::RateLimited:
      return "rate_limited";
    case ErrorKind::StreamError:
      return "stream_error";
    case ErrorKind::Malformed:
      return "malformed";
    case ErrorKind::Truncated:
      return "truncated";
    case ErrorKind::FirstByteTimeout:
      return "first_byte_timeout";
    case ErrorKind::IdleTimeout:
      return "idle_timeout";
    case ErrorKind::TotalTimeout:
      return "total_timeout";
    case ErrorKind::TooLarge:
      return "too_large";
    case ErrorKind::Cancelled:
      return "cancelled";
    case ErrorKind::ClientError:
      return "client_error";
    case ErrorKind::Refused:
      return "refused";
  }
  return "unknown";
}

}  // namespace lb::net
