// The module's umbrella: the generated xdg-shell client code and the interface addresses.
#include "xdg-shell-client-protocol.h"
#include "interfaces.h"
