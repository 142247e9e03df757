# Ports of a service
type Port = Integer[1, 65535]
type Ports = Array[Port]
