package report

import (
	"image/color"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Bundles are the bundles of one page as every experiment's page shows them alike: each
// one's verification at the head, their hosts and parameters in the first section, their
// images in the last. They are gathered bundle by bundle, in the order and colours of
// the plots.
type Bundles struct {
	statuses []Status
	labels   []string
	commons  []*bundle.Common
	params   []any
}

// Add adds a bundle labelled label, verified as res, with its manifest's common part and
// its parameters, and returns the bundle's colour on every plot of the page.
func (b *Bundles) Add(label string, res *verify.Result, common *bundle.Common, params any) color.RGBA {
	c := Colour(len(b.labels))
	b.statuses = append(b.statuses, StatusOf(label, c, res))
	b.labels = append(b.labels, label)
	b.commons = append(b.commons, common)
	b.params = append(b.params, params)
	return c
}

// Page is a page of the bundles whose first section is their hosts and parameters, with
// the experiment's own tables of the setup after them and its warnings above.
func (b *Bundles) Page(experiment, version, sub string, warnings []string, tables ...Table) (Page, error) {
	params, err := ParamsTable(b.labels, b.params)
	if err != nil {
		return Page{}, err
	}
	setup := Section{ID: "setup", Title: "Hosts and parameters", Warnings: warnings,
		Tables: append([]Table{HostsTable(b.labels, b.commons), params}, tables...)}
	return Page{Experiment: experiment, Version: version, Sub: sub, Bundles: b.statuses, Sections: []Section{setup}}, nil
}

// Images is the section of the images every bundle ran.
func (b *Bundles) Images() Section {
	return Section{ID: "images", Title: "Images", Tables: []Table{ImagesTable(b.labels, b.commons)}}
}
