package sim

// ToolLabel names a tool of a server as "server/tool" ("tool" without one).
func ToolLabel(server, tool string) string {
	if server == "" {
		return tool
	}
	return server + "/" + tool
}

// ClassLabel is a resolution class in words.
func ClassLabel(class string) string {
	switch class {
	case ClassResolved:
		return "resolved"
	case ClassUnknownTool:
		return "unknown tool"
	case ClassUnknownServer:
		return "unknown server"
	case ClassVersionMissing:
		return "version missing"
	case ClassSchemaApproximate:
		return "schema approximate"
	case ClassSchemaMissing:
		return "schema missing"
	}
	return class
}
