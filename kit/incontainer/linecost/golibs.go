package linecost

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/rs/zerolog"
	"github.com/sirupsen/logrus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// calls are one library's three call sites over a logger whose level is INFO: an
// enabled line, a disabled DEBUG line with its arguments passed apart (lazy), and one
// whose message is built at the call site (eager).
type calls struct {
	info, debugLazy, debugEager func(seq int64)
}

// goLibrary is a Go library as its documentation sets it up.
type goLibrary struct {
	// make is a logger writing shape to w at level INFO, the user's rendering counted.
	make func(w io.Writer, shape string, u *user) calls
	// call and eager are the call sites as a program writes them (the document's Call).
	call, lazy, eager string
	// encoder names what formats the line, for the document's Path.
	encoder func(shape string) string
	// buffered is the library's own buffered writer, when it has one; nil: the kit's
	// periodicWriter (a bufio.Writer flushed every interval).
	buffered func(f *countingFile, size int, interval time.Duration) (io.Writer, func() error)
}

func eagerMessage(seq int64, u *user) string {
	return fmt.Sprintf("served seq=%d user=%s path=%s status=%d", seq, u, itemPath, httpStatus)
}

func noTime(shape string) bool { return shape == LineTextNoTime || shape == LineJSONNoTime }
func isJSON(shape string) bool { return shape == LineJSON || shape == LineJSONNoTime }

var goLibraries = map[string]goLibrary{
	"slog": {
		make: func(w io.Writer, shape string, u *user) calls {
			o := &slog.HandlerOptions{Level: slog.LevelInfo}
			if noTime(shape) {
				o.ReplaceAttr = dropTime
			}
			var h slog.Handler = slog.NewTextHandler(w, o)
			if isJSON(shape) {
				h = slog.NewJSONHandler(w, o)
			}
			l := slog.New(h)
			return calls{
				info: func(seq int64) {
					l.Info("served", "seq", seq, "user", u, "path", itemPath, "status", httpStatus)
				},
				debugLazy: func(seq int64) {
					l.Debug("served", "seq", seq, "user", u, "path", itemPath, "status", httpStatus)
				},
				debugEager: func(seq int64) { l.Debug(eagerMessage(seq, u)) },
			}
		},
		call:  `logger.Info("served", "seq", seq, "user", u, "path", path, "status", 200)`,
		lazy:  `logger.Debug("served", "seq", seq, "user", u, "path", path, "status", 200)`,
		eager: `logger.Debug(fmt.Sprintf("served seq=%d user=%s path=%s status=%d", seq, u, path, 200))`,
		encoder: func(shape string) string {
			h := "slog.TextHandler"
			if isJSON(shape) {
				h = "slog.JSONHandler"
			}
			if noTime(shape) {
				h += " (ReplaceAttr drops the time)"
			}
			return h
		},
	},
	"zap": {
		make: func(w io.Writer, shape string, u *user) calls {
			ec := zap.NewProductionEncoderConfig()
			if noTime(shape) {
				ec.TimeKey = ""
			}
			enc := zapcore.NewConsoleEncoder(ec)
			if isJSON(shape) {
				enc = zapcore.NewJSONEncoder(ec)
			}
			l := zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), zapcore.InfoLevel))
			return calls{
				info: func(seq int64) {
					l.Info("served", zap.Int64("seq", seq), zap.Stringer("user", u), zap.String("path", itemPath), zap.Int("status", httpStatus))
				},
				debugLazy: func(seq int64) {
					l.Debug("served", zap.Int64("seq", seq), zap.Stringer("user", u), zap.String("path", itemPath), zap.Int("status", httpStatus))
				},
				debugEager: func(seq int64) { l.Debug(eagerMessage(seq, u)) },
			}
		},
		call:  `logger.Info("served", zap.Int64("seq", seq), zap.Stringer("user", u), zap.String("path", path), zap.Int("status", 200))`,
		lazy:  `logger.Debug("served", zap.Int64("seq", seq), zap.Stringer("user", u), zap.String("path", path), zap.Int("status", 200))`,
		eager: `logger.Debug(fmt.Sprintf("served seq=%d user=%s path=%s status=%d", seq, u, path, 200))`,
		encoder: func(shape string) string {
			e := "zap.New(zapcore.NewCore(zapcore.NewConsoleEncoder(zap.NewProductionEncoderConfig()), ..., InfoLevel)) (NewProduction's encoder, without its sampling, which would drop lines)"
			if isJSON(shape) {
				e = "zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), ..., InfoLevel)) (NewProduction's encoder, without its sampling, which would drop lines)"
			}
			if noTime(shape) {
				e += ", TimeKey \"\""
			}
			return e
		},
		buffered: func(f *countingFile, size int, interval time.Duration) (io.Writer, func() error) {
			ws := &zapcore.BufferedWriteSyncer{WS: zapcore.AddSync(f), Size: size, FlushInterval: interval}
			return ws, ws.Stop
		},
	},
	"zerolog": {
		make: func(w io.Writer, shape string, u *user) calls {
			l := zerolog.New(w).Level(zerolog.InfoLevel)
			if !noTime(shape) {
				l = l.With().Timestamp().Logger()
			}
			return calls{
				info: func(seq int64) {
					l.Info().Int64("seq", seq).Stringer("user", u).Str("path", itemPath).Int("status", httpStatus).Msg("served")
				},
				debugLazy: func(seq int64) {
					l.Debug().Int64("seq", seq).Stringer("user", u).Str("path", itemPath).Int("status", httpStatus).Msg("served")
				},
				debugEager: func(seq int64) { l.Debug().Msg(eagerMessage(seq, u)) },
			}
		},
		call:  `logger.Info().Int64("seq", seq).Stringer("user", u).Str("path", path).Int("status", 200).Msg("served")`,
		lazy:  `logger.Debug().Int64("seq", seq).Stringer("user", u).Str("path", path).Int("status", 200).Msg("served")`,
		eager: `logger.Debug().Msg(fmt.Sprintf("served seq=%d user=%s path=%s status=%d", seq, u, path, 200))`,
		encoder: func(shape string) string {
			if noTime(shape) {
				return "zerolog.New(w).Level(zerolog.InfoLevel)"
			}
			return "zerolog.New(w).Level(zerolog.InfoLevel).With().Timestamp().Logger()"
		},
	},
	"logrus": {
		make: func(w io.Writer, shape string, u *user) calls {
			l := logrus.New()
			l.Out, l.Level = w, logrus.InfoLevel
			l.Formatter = &logrus.TextFormatter{DisableTimestamp: noTime(shape)}
			if isJSON(shape) {
				l.Formatter = &logrus.JSONFormatter{DisableTimestamp: noTime(shape)}
			}
			return calls{
				info: func(seq int64) {
					l.WithFields(logrus.Fields{"seq": seq, "user": u, "path": itemPath, "status": httpStatus}).Info("served")
				},
				debugLazy: func(seq int64) {
					l.WithFields(logrus.Fields{"seq": seq, "user": u, "path": itemPath, "status": httpStatus}).Debug("served")
				},
				debugEager: func(seq int64) { l.Debug(eagerMessage(seq, u)) },
			}
		},
		call:  `logger.WithFields(logrus.Fields{"seq": seq, "user": u, "path": path, "status": 200}).Info("served")`,
		lazy:  `logger.WithFields(logrus.Fields{"seq": seq, "user": u, "path": path, "status": 200}).Debug("served")`,
		eager: `logger.Debug(fmt.Sprintf("served seq=%d user=%s path=%s status=%d", seq, u, path, 200))`,
		encoder: func(shape string) string {
			f := "logrus.TextFormatter"
			if isJSON(shape) {
				f = "logrus.JSONFormatter"
			}
			if noTime(shape) {
				f += "{DisableTimestamp: true}"
			}
			return f
		},
	},
}

// MarshalJSON is how encoding/json (logrus's JSONFormatter) renders the user: by its
// name, counted like String.
func (u *user) MarshalJSON() ([]byte, error) {
	u.built++
	return json.Marshal(u.name)
}

// goWayInfo is the document's Call and Path of way in lib writing shape.
func goWayInfo(lib Library, shape, way string) (call, path string) {
	g := goLibraries[lib.ID]
	call = g.call
	switch way {
	case DisabledEager:
		call = g.eager
	case DisabledLazy:
		call = g.lazy
	}
	path = g.encoder(shape) + " " + wayPath[way]
	if way == Buffered && g.buffered != nil {
		path = g.encoder(shape) + " writes each line to zapcore.BufferedWriteSyncer{Size: 4096, FlushInterval: 1s}, which writes to the file when full and flushes every second"
	}
	return call, path
}
