import Glibc

/// The value of an environment variable, or nil when unset or empty.
func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let string = String(cString: value)
    return string.isEmpty ? nil : string
}
