package experiment

import (
	"errors"
	"flag"
	"strconv"
)

// SwitchTo binds a switch to a field that keeps one of two settings by name: on when
// the switch is given (--keep-user: the image's own user, ""), off when it is given
// false. The switch reads as set when the field holds on.
func SwitchTo(p *string, on, off string) flag.Value { return switchTo{p, on, off} }

type switchTo struct {
	v       *string
	on, off string
}

func (s switchTo) IsBoolFlag() bool { return true }
func (s switchTo) String() string {
	if s.v == nil {
		return "false"
	}
	return strconv.FormatBool(*s.v == s.on)
}
func (s switchTo) Set(text string) error {
	b, err := strconv.ParseBool(text)
	if err != nil {
		return errors.New("want true or false")
	}
	*s.v = s.off
	if b {
		*s.v = s.on
	}
	return nil
}
