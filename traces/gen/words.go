package gen

// The word lists below are the generator's own vocabulary: domains (one per
// generated server kind), verbs, property templates and sentence templates.
// Everything is written for this project; nothing is taken from real catalogs.

// noun is an object a domain's tools act on.
type noun struct {
	one  string // singular, snake_case
	many string // plural, snake_case
	alt  string // a word users say instead (plain words, may contain spaces)
}

// domain is the vocabulary of one kind of server.
type domain struct {
	name   string // server name stem, kebab-case
	about  string // noun phrase for descriptions: "the project tracker"
	nouns  []noun
	attrs  []string // attribute words for properties and filters
	values []string // sample words for free-text argument values
	// verbs restricts the verbs used to name tools (nil: all verbs).
	verbs []string
}

var domains = []domain{
	{name: "tracker", about: "the project tracker", nouns: []noun{
		{"issue", "issues", "ticket"}, {"project", "projects", "board"}, {"milestone", "milestones", "release goal"},
		{"label", "labels", "tag"}, {"comment", "comments", "reply"}, {"sprint", "sprints", "iteration"}},
		attrs:  []string{"status", "priority", "assignee", "estimate", "due_date", "label"},
		values: []string{"login page crash", "slow search results", "billing export", "onboarding flow", "dark mode"}},
	{name: "calendar", about: "the team calendar", nouns: []noun{
		{"event", "events", "meeting"}, {"calendar", "calendars", "schedule"}, {"attendee", "attendees", "guest"},
		{"slot", "slots", "free time"}, {"reminder", "reminders", "alert"}},
		attrs:  []string{"start_time", "end_time", "timezone", "location", "recurrence", "visibility"},
		values: []string{"weekly sync", "design review", "quarterly planning", "1:1", "offsite"}},
	{name: "crm", about: "the customer relationship system", nouns: []noun{
		{"contact", "contacts", "customer"}, {"company", "companies", "account"}, {"deal", "deals", "opportunity"},
		{"note", "notes", "memo"}, {"pipeline", "pipelines", "funnel"}, {"owner", "owners", "sales rep"}},
		attrs:  []string{"stage", "amount", "close_date", "industry", "region", "email"},
		values: []string{"Northwind", "renewal", "enterprise plan", "Q3 expansion", "trial signup"}},
	{name: "billing", about: "the billing service", nouns: []noun{
		{"invoice", "invoices", "bill"}, {"payment", "payments", "charge"}, {"subscription", "subscriptions", "plan"},
		{"refund", "refunds", "money back"}, {"coupon", "coupons", "discount"}, {"customer", "customers", "payer"}},
		attrs:  []string{"currency", "amount", "status", "due_date", "interval", "tax_rate"},
		values: []string{"annual plan", "overdue invoice", "card declined", "seat upgrade", "promo code"}},
	{name: "docs", about: "the document workspace", nouns: []noun{
		{"document", "documents", "doc"}, {"page", "pages", "wiki page"}, {"folder", "folders", "directory"},
		{"comment", "comments", "feedback"}, {"template", "templates", "boilerplate"}, {"revision", "revisions", "version"}},
		attrs:  []string{"title", "parent", "format", "language", "owner", "visibility"},
		values: []string{"release notes", "onboarding guide", "API overview", "meeting minutes", "roadmap"}},
	{name: "files", about: "the file store", nouns: []noun{
		{"file", "files", "attachment"}, {"directory", "directories", "folder"}, {"link", "links", "share link"},
		{"permission", "permissions", "access"}},
		attrs:  []string{"path", "size", "mime_type", "modified_after", "encoding", "recursive"},
		values: []string{"report.pdf", "logs/app.log", "images", "backup.tar", "config.yaml"}},
	{name: "chat", about: "the team chat", nouns: []noun{
		{"message", "messages", "post"}, {"channel", "channels", "room"}, {"thread", "threads", "conversation"},
		{"reaction", "reactions", "emoji"}, {"user", "users", "teammate"}},
		attrs:  []string{"text", "channel", "mentions", "since", "unread", "pinned"},
		values: []string{"deploy status", "lunch plans", "incident update", "standup", "welcome"}},
	{name: "mail", about: "the mailbox", nouns: []noun{
		{"email", "emails", "mail"}, {"draft", "drafts", "unsent mail"}, {"label", "labels", "category"},
		{"filter", "filters", "rule"}, {"attachment", "attachments", "enclosure"}},
		attrs:  []string{"subject", "sender", "recipients", "received_after", "has_attachment", "importance"},
		values: []string{"invoice reminder", "travel itinerary", "newsletter", "interview", "contract"}},
	{name: "database", about: "the SQL database", nouns: []noun{
		{"table", "tables", "dataset"}, {"query", "queries", "SQL"}, {"index", "indexes", "lookup index"},
		{"row", "rows", "record"}, {"migration", "migrations", "schema change"}, {"view", "views", "saved query"}},
		attrs:  []string{"schema", "columns", "where", "order_by", "database", "read_only"},
		values: []string{"orders", "users", "daily totals", "signups", "inventory"}},
	{name: "deploy", about: "the CI/CD service", nouns: []noun{
		{"pipeline", "pipelines", "build"}, {"job", "jobs", "step"}, {"deployment", "deployments", "release"},
		{"environment", "environments", "stage"}, {"artifact", "artifacts", "build output"}, {"secret", "secrets", "credential"}},
		attrs:  []string{"branch", "commit", "environment", "status", "triggered_by", "timeout"},
		values: []string{"main", "staging", "hotfix", "nightly", "canary"}},
	{name: "monitoring", about: "the monitoring stack", nouns: []noun{
		{"alert", "alerts", "alarm"}, {"metric", "metrics", "graph"}, {"incident", "incidents", "outage"},
		{"dashboard", "dashboards", "panel"}, {"log", "logs", "log line"}, {"monitor", "monitors", "check"}},
		attrs:  []string{"severity", "service", "window", "threshold", "team", "acknowledged"},
		values: []string{"checkout latency", "error rate", "disk usage", "api gateway", "payments"}},
	{name: "analytics", about: "the analytics warehouse", nouns: []noun{
		{"report", "reports", "summary"}, {"dashboard", "dashboards", "chart"}, {"segment", "segments", "cohort"},
		{"funnel", "funnels", "conversion"}, {"event", "events", "tracking event"}},
		attrs:  []string{"date_range", "granularity", "dimension", "measure", "filter", "compare_to"},
		values: []string{"weekly active users", "retention", "signup funnel", "revenue", "churn"}},
	{name: "maps", about: "the maps service", nouns: []noun{
		{"place", "places", "location"}, {"route", "routes", "directions"}, {"address", "addresses", "street address"},
		{"distance", "distances", "travel time"}, {"timezone", "timezones", "local time"}},
		attrs:  []string{"latitude", "longitude", "radius", "mode", "language", "region"},
		values: []string{"coffee near the office", "airport", "Lisbon", "train station", "hotel"}},
	{name: "travel", about: "the travel booking system", nouns: []noun{
		{"flight", "flights", "plane ticket"}, {"booking", "bookings", "reservation"}, {"hotel", "hotels", "room"},
		{"passenger", "passengers", "traveller"}, {"itinerary", "itineraries", "trip"}},
		attrs:  []string{"origin", "destination", "depart_date", "cabin", "seats", "loyalty_number"},
		values: []string{"Boston", "Denver", "window seat", "business class", "two nights"}},
	{name: "shop", about: "the online store", nouns: []noun{
		{"order", "orders", "purchase"}, {"product", "products", "item"}, {"cart", "carts", "basket"},
		{"shipment", "shipments", "delivery"}, {"return", "returns", "exchange"}, {"review", "reviews", "rating"}},
		attrs:  []string{"sku", "quantity", "price", "warehouse", "carrier", "status"},
		values: []string{"blue jacket", "headphones", "size M", "gift wrap", "express shipping"}},
	{name: "hr", about: "the HR system", nouns: []noun{
		{"employee", "employees", "staff member"}, {"leave_request", "leave_requests", "time off"},
		{"team", "teams", "department"}, {"review", "reviews", "performance review"}, {"position", "positions", "opening"}},
		attrs:  []string{"manager", "start_date", "location", "level", "department", "status"},
		values: []string{"vacation", "new hire", "engineering", "promotion", "parental leave"}},
	{name: "repo", about: "the code host", nouns: []noun{
		{"repository", "repositories", "repo"}, {"branch", "branches", "branch"}, {"pull_request", "pull_requests", "PR"},
		{"commit", "commits", "change"}, {"release", "releases", "tag"}, {"review", "reviews", "code review"}},
		attrs:  []string{"owner", "base", "head", "path", "ref", "draft"},
		values: []string{"fix flaky test", "bump dependencies", "README", "v2.3.0", "feature flag"}},
	{name: "flags", about: "the feature-flag service", nouns: []noun{
		{"flag", "flags", "toggle"}, {"segment", "segments", "audience"}, {"environment", "environments", "env"},
		{"experiment", "experiments", "A/B test"}},
		attrs:  []string{"key", "variation", "rollout", "environment", "archived", "tags"},
		values: []string{"new checkout", "beta users", "production", "dark launch", "pricing test"}},
	{name: "cloud", about: "the cloud account", nouns: []noun{
		{"instance", "instances", "server"}, {"bucket", "buckets", "storage bucket"}, {"volume", "volumes", "disk"},
		{"network", "networks", "VPC"}, {"function", "functions", "lambda"}, {"snapshot", "snapshots", "backup"}},
		attrs:  []string{"region", "zone", "size", "image", "tags", "state"},
		values: []string{"web-1", "eu-west", "nightly backup", "gpu node", "static assets"}},
	{name: "kb", about: "the knowledge base", nouns: []noun{
		{"article", "articles", "help article"}, {"collection", "collections", "section"}, {"answer", "answers", "snippet"},
		{"feedback", "feedback", "vote"}},
		attrs:  []string{"locale", "audience", "author", "updated_after", "published", "keywords"},
		values: []string{"password reset", "refund policy", "SSO setup", "API limits", "shipping times"}},
	// Domains below are used by planted servers (web, browser, memory, desktop).
	{name: "web", about: "the public web", nouns: []noun{
		{"page", "pages", "web page"}, {"result", "results", "hit"}, {"site", "sites", "website"}, {"news", "news", "headline"}},
		attrs:  []string{"url", "country", "freshness", "safe_search", "max_results", "include_domains"},
		values: []string{"latest release notes", "exchange rate", "weather tomorrow", "conference dates", "library docs"},
		verbs:  []string{"search", "fetch", "get", "list"}},
	{name: "browser", about: "the controlled browser", nouns: []noun{
		{"page", "pages", "tab"}, {"tab", "tabs", "window"}, {"element", "elements", "button"}, {"form", "forms", "fields"},
		{"dialog", "dialogs", "popup"}, {"cookie", "cookies", "cookie"}, {"console", "console", "console output"},
		{"network_request", "network_requests", "request"}, {"pdf", "pdfs", "PDF"}},
		attrs:  []string{"selector", "url", "timeout_ms", "button", "modifiers", "frame"},
		values: []string{"#submit", "login form", "next page", "search box", "accept cookies"},
		verbs:  []string{"navigate", "click", "type", "select", "hover", "snapshot", "close", "wait_for", "evaluate", "list", "get", "fill", "drag", "press", "resize", "upload", "save"}},
	{name: "memory", about: "long-term memory", nouns: []noun{
		{"memory", "memories", "memory"}, {"fact", "facts", "detail"}, {"entity", "entities", "thing"}, {"note", "notes", "note"}},
		attrs:  []string{"topic", "importance", "tags", "source", "ttl_days", "scope"},
		values: []string{"preferred airline", "project codename", "user timezone", "favourite editor", "team lead"},
		verbs:  []string{"recall", "store", "forget", "list", "search", "update"}},
	{name: "desktop", about: "the local desktop", nouns: []noun{
		{"window", "windows", "app window"}, {"process", "processes", "program"}, {"schedule", "schedules", "scheduled task"},
		{"clipboard", "clipboard", "clipboard"}, {"screen", "screens", "display"}},
		attrs:  []string{"display", "region", "app", "interval", "command", "cron"},
		values: []string{"terminal", "nightly cleanup", "Finder", "main display", "build script"},
		verbs:  []string{"list", "get", "create", "update", "delete", "focus", "kill", "capture"}},
}

// plantedDomains are the domains reserved for planted servers; generic
// servers draw from the others first.
var plantedDomains = map[string]bool{"web": true, "browser": true, "memory": true, "desktop": true}

// verb is an action a tool performs.
type verb struct {
	word   string // as in tool names
	does   string // third person, for descriptions ("Creates")
	ask    string // how a user phrases it ("create")
	plural bool   // acts on a set (tool name takes the plural noun)
	kind   string // read, write or destroy (annotations)
}

var verbs = []verb{
	{"list", "Lists", "show me all the", true, "read"},
	{"get", "Gets", "pull up the", false, "read"},
	{"search", "Searches", "look for", true, "read"},
	{"create", "Creates", "create a new", false, "write"},
	{"update", "Updates", "change the", false, "write"},
	{"delete", "Deletes", "delete the", false, "destroy"},
	{"archive", "Archives", "archive the", false, "write"},
	{"export", "Exports", "export the", true, "read"},
	{"assign", "Assigns", "assign the", false, "write"},
	{"move", "Moves", "move the", false, "write"},
	{"share", "Shares", "share the", false, "write"},
	{"count", "Counts", "count the", true, "read"},
	{"restore", "Restores", "restore the", false, "write"},
	{"summarize", "Summarizes", "summarize the", false, "read"},
	{"sync", "Synchronizes", "sync the", true, "write"},
	{"validate", "Validates", "check the", false, "read"},
	{"fetch", "Fetches", "fetch the", false, "read"},
	{"navigate", "Navigates", "go to the", false, "write"},
	{"click", "Clicks", "click the", false, "write"},
	{"type", "Types text into", "type into the", false, "write"},
	{"select", "Selects an option in", "pick from the", false, "write"},
	{"hover", "Hovers over", "hover over the", false, "read"},
	{"snapshot", "Captures an accessibility snapshot of", "snapshot the", false, "read"},
	{"close", "Closes", "close the", false, "write"},
	{"wait_for", "Waits for", "wait for the", false, "read"},
	{"evaluate", "Evaluates a script in", "run a script on the", false, "write"},
	{"fill", "Fills", "fill in the", false, "write"},
	{"drag", "Drags", "drag the", false, "write"},
	{"press", "Presses a key on", "press a key on the", false, "write"},
	{"resize", "Resizes", "resize the", false, "write"},
	{"upload", "Uploads a file to", "upload to the", false, "write"},
	{"save", "Saves", "save the", false, "write"},
	{"recall", "Recalls", "remember the", true, "read"},
	{"store", "Stores", "remember this", false, "write"},
	{"forget", "Forgets", "forget the", false, "destroy"},
	{"focus", "Brings to the front", "switch to the", false, "write"},
	{"kill", "Terminates", "stop the", false, "destroy"},
	{"capture", "Captures", "capture the", false, "read"},
	{"take", "Takes", "take a", false, "read"},
	{"run", "Runs", "run the", false, "write"},
}

// genericVerbs are the verbs generic domains draw tool names from.
var genericVerbs = []string{"list", "get", "search", "create", "update", "delete", "archive", "export",
	"assign", "move", "share", "count", "restore", "summarize", "sync", "validate"}

func verbByWord(w string) (verb, bool) {
	for _, v := range verbs {
		if v.word == w {
			return v, true
		}
	}
	return verb{}, false
}

// propSpec is a template for one input property. "{n}" in name or desc is
// replaced by the tool's noun, "{a}" by an attribute word of the domain.
type propSpec struct {
	name string
	typ  string // string, integer, number, boolean, enum, date, datetime, id, strings, enums, object, objects
	desc string
	enum []string
}

// propPool holds the property templates tools draw from.
var propPool = []propSpec{
	{"{n}_id", "id", "Identifier of the {n}.", nil},
	{"query", "string", "Free-text query matched against {n} titles and bodies.", nil},
	{"limit", "integer", "Maximum number of {n} entries to return.", nil},
	{"cursor", "string", "Opaque pagination cursor returned by a previous call.", nil},
	{"page", "integer", "Page number, starting at 1.", nil},
	{"sort_by", "enum", "Field to sort results by.", []string{"created", "updated", "name", "relevance"}},
	{"order", "enum", "Sort direction.", []string{"asc", "desc"}},
	{"include_archived", "boolean", "Also return archived {n} entries.", nil},
	{"dry_run", "boolean", "Validate the request without applying any change.", nil},
	{"{a}", "string", "The {a} of the {n}.", nil},
	{"{a}_filter", "string", "Only return entries whose {a} matches this value.", nil},
	{"title", "string", "Short human-readable title for the {n}.", nil},
	{"body", "string", "Main text content of the {n}. Markdown is accepted.", nil},
	{"description", "string", "Longer description shown on the {n} details view.", nil},
	{"tags", "strings", "Tags to attach to the {n}.", nil},
	{"created_after", "date", "Only include {n} entries created on or after this date (YYYY-MM-DD).", nil},
	{"updated_before", "datetime", "Only include {n} entries updated before this instant (RFC 3339).", nil},
	{"fields", "enums", "Which fields to include in the response; omit for the default set.", []string{"id", "name", "status", "owner", "created", "updated", "url"}},
	{"format", "enum", "Output format of the response.", []string{"json", "markdown", "csv", "text"}},
	{"visibility", "enum", "Who can see the {n}.", []string{"private", "team", "public"}},
	{"priority", "enum", "Priority level.", []string{"low", "medium", "high", "urgent"}},
	{"status", "enum", "Lifecycle state of the {n}.", []string{"open", "in_progress", "blocked", "done", "cancelled"}},
	{"notify", "boolean", "Send a notification to people who follow the {n}.", nil},
	{"timeout_seconds", "integer", "Give up after this many seconds.", nil},
	{"max_results", "integer", "Upper bound on the number of results.", nil},
	{"threshold", "number", "Numeric threshold applied to the {a}.", nil},
	{"ratio", "number", "Fraction between 0 and 1.", nil},
	{"metadata", "object", "Arbitrary key/value metadata stored with the {n}.", nil},
	{"filter", "object", "Structured filter; every given field must match.", nil},
	{"options", "object", "Advanced options; the defaults suit most calls.", nil},
	{"items", "objects", "Entries to process in one batch.", nil},
	{"recipients", "strings", "Addresses or user handles to include.", nil},
	{"owner", "string", "Account or team that owns the {n}.", nil},
	{"url", "string", "Absolute URL, including the scheme.", nil},
	{"path", "string", "Path relative to the workspace root.", nil},
	{"language", "enum", "Language of the content.", []string{"en", "de", "fr", "es", "ja", "pt"}},
	{"timezone", "string", "IANA time-zone name, for example Europe/Paris.", nil},
	{"confirm", "boolean", "Must be true to perform an irreversible action.", nil},
	{"amount", "number", "Amount in the account currency.", nil},
	{"count", "integer", "How many to create or return.", nil},
	{"mode", "enum", "Processing mode.", []string{"fast", "balanced", "thorough"}},
	{"parent_id", "id", "Identifier of the parent {n}, if any.", nil},
	{"due_date", "date", "Date by which the {n} should be done.", nil},
	{"comment", "string", "Note recorded in the {n} history.", nil},
}

// Sentence templates for tool descriptions. {V} third-person verb, {n}
// noun, {N} plural noun, {D} the domain phrase, {a}/{b} attribute words.
var descLead = []string{
	"{V} {n_art} in {D}.",
	"{V} {n_art} from {D}.",
	"{V} one {n} in {D} by its identifier.",
	"{V} {N} in {D} that match the given criteria.",
	"{V} {N} stored in {D}.",
}

// A "r:" or "w:" prefix limits a sentence to tools that read or change data.
var descMore = []string{
	"Returns the {n} with its {a} and {b}.",
	"Use it when the user asks about a specific {n}.",
	"r:Results are paginated; pass the cursor from the previous response to get the next page.",
	"w:Requires write access to {D}.",
	"w:Fields left out keep their current values.",
	"Times are interpreted in UTC unless a timezone is given.",
	"w:The call is idempotent: repeating it with the same arguments has no further effect.",
	"r:Large responses are truncated; narrow the request with filters when that happens.",
	"r:Prefer the list variant when you do not know the identifier yet.",
	"r:Archived entries are skipped unless explicitly requested.",
	"The {a} must be one of the values the service knows about.",
	"An error is returned when the {n} does not exist or is not visible to the caller.",
	"w:Changes are visible to other users within a few seconds.",
	"w:Call this before making changes so the current {a} is known.",
	"r:Only the first 200 {N} are considered when sorting.",
	"r:Matching is case-insensitive and ignores punctuation.",
	"Rate limits apply: at most 60 calls per minute per workspace.",
	"The response includes a link that opens the {n} in the web interface.",
	"r:When several {N} match, the most recently updated comes first.",
	"w:Deleted entries stay recoverable for 30 days.",
}

var descExample = []string{
	"Example: set {a} to narrow the results to the entries you need.",
	"Tip: combine {a} and {b} filters to keep the response small.",
	"Note: the {b} field is read-only and ignored if supplied.",
	"Important: never guess identifiers; look them up first.",
}

// Sentence templates for user messages that lead to a tool call.
var userAsk = []string{
	"Can you {ask} {thing}?",
	"Please {ask} {thing}.",
	"I need you to {ask} {thing}.",
	"Could you {ask} {thing} for me?",
	"Next, {ask} {thing}.",
}

// userOpen are first user turns that do not ask for a tool yet.
var userOpen = []string{
	"Hi, I need some help with {value}.",
	"Hello! Quick question about {value}.",
	"Hey, can you help me sort out {value}?",
	"Good morning. I'm working on {value} today.",
}

// userFiller pads user messages to their drawn length.
var userFiller = []string{
	"It's for the review this afternoon.",
	"My manager asked me to sort this out today.",
	"Thanks a lot.",
	"If something looks off, tell me before changing anything.",
	"I'm not sure about the exact name, sorry.",
	"Keep it short please.",
	"This has been bugging me all week.",
	"We talked about it in yesterday's meeting.",
	"Let me know what you find.",
	"The earlier attempt didn't work.",
	"I'm on my phone so I can't check myself.",
	"No rush, but before the end of the day would be great.",
}

// userReply are user turns that do not ask for a tool (confirmations, details).
var userReply = []string{
	"Yes, go ahead.",
	"That's right.",
	"No, the other one.",
	"Sure, it's {value}.",
	"Okay, thanks. What about {value}?",
	"Hmm, let me think. Use {value}.",
	"Perfect, that's all for now.",
	"Can you explain that last part again?",
	"Great, thank you!",
	"Actually, make it {value} instead.",
}

// errorTexts are results of failed tool calls.
var errorTexts = []string{
	"not found",
	"permission denied",
	"rate limit exceeded, retry later",
	"invalid value for {a}",
	"upstream service unavailable",
	"conflict: the {n} was modified by someone else",
}
