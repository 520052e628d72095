package linecost

import (
	"fmt"
	"slices"
	"strings"
)

// Library is one logging library the experiment measures in one language: what its
// program reports (Name), the line it writes in each shape it has an encoder for, and
// the ways it cannot do, each with the reason, listed as not offered instead of faked.
type Library struct {
	ID       string // what --libraries says: "slog", "zap", "logging", "winston"
	Language string // "go", "python" or "node"
	// Name is LineCostDocument.Library: the package as its users import it.
	Name string
	// Default is the shape the library writes when set up as its documentation shows.
	Default string
	// Lines are the line templates (SeqMark, TimeMark) of the shapes it has an encoder
	// for; a shape missing here is not offered, for the reason in NoShape.
	Lines   map[string]string
	NoShape string
	// NotOffered are the ways it cannot do, each with the reason.
	NotOffered map[string]string
}

// The line's fields, in the order the call sites pass them.
const (
	textFields = "seq={seq} user=alice path=/api/items status=200"
	jsonFields = `"seq":{seq},"user":"alice","path":"/api/items","status":200`
)

// Libraries lists every library, the first of each language being the one the
// experiment measured before it had a library axis (and the default of --libraries).
var Libraries = []Library{
	{ID: "slog", Language: "go", Name: "log/slog", Default: LineText, Lines: map[string]string{
		LineText:       "time={time} level=INFO msg=served " + textFields,
		LineTextNoTime: "level=INFO msg=served " + textFields,
		LineJSON:       `{"time":"{time}","level":"INFO","msg":"served",` + jsonFields + `}`,
		LineJSONNoTime: `{"level":"INFO","msg":"served",` + jsonFields + `}`,
	}},
	{ID: "zap", Language: "go", Name: "go.uber.org/zap", Default: LineJSON, Lines: map[string]string{
		LineJSON:       `{"level":"info","ts":{time},"msg":"served",` + jsonFields + `}`,
		LineJSONNoTime: `{"level":"info","msg":"served",` + jsonFields + `}`,
		LineText:       "{time}\tinfo\tserved\t" + `{"seq": {seq}, "user": "alice", "path": "/api/items", "status": 200}`,
		LineTextNoTime: "info\tserved\t" + `{"seq": {seq}, "user": "alice", "path": "/api/items", "status": 200}`,
	}},
	{ID: "zerolog", Language: "go", Name: "github.com/rs/zerolog", Default: LineJSON, Lines: map[string]string{
		LineJSON:       `{"level":"info",` + jsonFields + `,"time":"{time}","message":"served"}`,
		LineJSONNoTime: `{"level":"info",` + jsonFields + `,"message":"served"}`,
	}, NoShape: "zerolog writes JSON only; its ConsoleWriter is a development pretty-printer that decodes every JSON line again"},
	{ID: "logrus", Language: "go", Name: "github.com/sirupsen/logrus", Default: LineText, Lines: map[string]string{
		LineText:       `time="{time}" level=info msg=served path=/api/items seq={seq} status=200 user=alice`,
		LineTextNoTime: "level=info msg=served path=/api/items seq={seq} status=200 user=alice",
		LineJSON:       `{"level":"info","msg":"served","path":"/api/items","seq":{seq},"status":200,"time":"{time}","user":"alice"}`,
		LineJSONNoTime: `{"level":"info","msg":"served","path":"/api/items","seq":{seq},"status":200,"user":"alice"}`,
	}},
	{ID: "logging", Language: "python", Name: "logging", Default: LineText, Lines: map[string]string{
		LineText:       "time={time} level=INFO msg=served " + textFields,
		LineTextNoTime: "level=INFO msg=served " + textFields,
	}, NoShape: "logging has no JSON formatter"},
	{ID: "structlog", Language: "python", Name: "structlog", Default: LineJSON, Lines: map[string]string{
		LineText:       "timestamp={time} level=info event=served " + textFields,
		LineTextNoTime: "level=info event=served " + textFields,
		LineJSON:       `{"seq": {seq}, "user": "alice", "path": "/api/items", "status": 200, "event": "served", "level": "info", "timestamp": "{time}"}`,
		LineJSONNoTime: `{"seq": {seq}, "user": "alice", "path": "/api/items", "status": 200, "event": "served", "level": "info"}`,
	}, NotOffered: map[string]string{
		Queue: "structlog has no queue of its own: its documentation hands records to logging's handlers (QueueHandler) for that, which the logging library's queue way measures",
	}},
	{ID: "loguru", Language: "python", Name: "loguru", Default: LineText, Lines: map[string]string{
		LineText:       "{time} | INFO     | served " + textFields,
		LineTextNoTime: "INFO     | served " + textFields,
	}, NoShape: "loguru's JSON (serialize=True) holds the elapsed time, process and thread of each record, which no regeneration can match",
		NotOffered: map[string]string{
			Queue: "loguru's enqueue=True puts each record on an unbounded multiprocessing queue, a pipe: one write system call per line stays on the caller, and no size or full policy can be set",
		}},
	{ID: "util", Language: "node", Name: "util.format and fs.writeSync (no logging package); CPU clock: process.cpuUsage(), the whole process (Node.js 18 has no per-thread CPU clock)", Default: LineText, Lines: map[string]string{
		LineText:       "time={time} level=INFO msg=served " + textFields,
		LineTextNoTime: "level=INFO msg=served " + textFields,
	}, NoShape: "a plain util.format logger writes text"},
	{ID: "winston", Language: "node", Name: "winston", Default: LineJSON, Lines: map[string]string{
		// logform's json and simple formats sort the keys (safe-stable-stringify).
		LineJSON:       `{"level":"info","message":"served","path":"/api/items","seq":{seq},"status":200,"timestamp":"{time}","user":"alice"}`,
		LineJSONNoTime: `{"level":"info","message":"served","path":"/api/items","seq":{seq},"status":200,"user":"alice"}`,
		LineText:       `info: served {"path":"/api/items","seq":{seq},"status":200,"timestamp":"{time}","user":"alice"}`,
		LineTextNoTime: `info: served {"path":"/api/items","seq":{seq},"status":200,"user":"alice"}`,
	}},
}

// LibraryIDs are the ids of language's libraries, the default first.
func LibraryIDs(language string) []string {
	var ids []string
	for _, l := range Libraries {
		if l.Language == language {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

// LibraryOf finds a library by language and id.
func LibraryOf(language, id string) (Library, bool) {
	i := slices.IndexFunc(Libraries, func(l Library) bool { return l.Language == language && l.ID == id })
	if i < 0 {
		return Library{}, false
	}
	return Libraries[i], true
}

// DefaultLibrary is the language's first library.
func DefaultLibrary(language string) Library {
	l, _ := LibraryOf(language, LibraryIDs(language)[0])
	return l
}

// Shape resolves LineDefault to the library's own default shape.
func (l Library) Shape(line string) string {
	if line == LineDefault || line == "" {
		return l.Default
	}
	return line
}

// Template is the line the library writes in shape line; "" with the reason when it
// has no encoder for it.
func (l Library) Template(line string) (string, string) {
	s := l.Shape(line)
	if t, ok := l.Lines[s]; ok {
		return t, ""
	}
	return "", fmt.Sprintf("%s: no %s line (%s)", l.ID, s, l.NoShape)
}

// Offers says whether the library can do way with line, and if not, why.
func (l Library) Offers(way, line string) (bool, string) {
	if _, why := l.Template(line); why != "" {
		return false, why
	}
	if why, ok := l.NotOffered[way]; ok {
		return false, l.ID + ": " + why
	}
	return true, ""
}

// NotOfferedMark is how plans, help and tables show a way a library cannot do.
const NotOfferedMark = "not offered"

// LibrariesHelp lists the libraries per language for --libraries.
func LibrariesHelp() string {
	var parts []string
	for _, lang := range []string{"go", "python", "node"} {
		parts = append(parts, lang+": "+strings.Join(LibraryIDs(lang), ", "))
	}
	return strings.Join(parts, "; ")
}

// NotOfferedHelp lists what each library cannot do, for the help: the ways it has no
// mechanism for and the shapes it has no encoder for.
func NotOfferedHelp() string {
	var parts []string
	for _, l := range Libraries {
		for _, w := range Ways {
			if _, ok := l.NotOffered[w]; ok {
				parts = append(parts, l.ID+" "+w)
			}
		}
		var shapes []string
		for _, s := range LineShapes[1:] {
			if _, ok := l.Lines[s]; !ok {
				shapes = append(shapes, s)
			}
		}
		if len(shapes) > 0 {
			parts = append(parts, l.ID+" "+strings.Join(shapes, "/")+" lines")
		}
	}
	return strings.Join(parts, ", ")
}
