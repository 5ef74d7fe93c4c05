// Package hostlist reads and writes Slurm's hostlist notation, the compact
// way Slurm, its tools and its users write a set of node names:
// "zewura[3-4,7]" for zewura3, zewura4 and zewura7, "node[001-128]" for 128
// zero-padded names, "node[1-2],gpu1" for names with several prefixes.
//
// [Expand] turns an expression into names, refusing expansions above a
// caller's limit; [Format] turns names back into the shortest expression
// this package writes. Format(Expand(x)) is stable: formatting the names of
// a formatted expression gives that expression again.
//
// The notation, as Slurm documents it (Slurm::Hostlist(3pm),
// slurm_hostlist_create(3)) and as Slurm 22.05's "scontrol show hostnames"
// reads it: items are separated by commas or white space, empty items are
// skipped; an item is a host name, or text and bracket groups, each a
// comma-separated list of numbers and inclusive ranges lo-hi, the item
// ending with a bracket group. An item with several groups denotes their
// cartesian product ("a[1-2]b[3-4]" is a1b3, a1b4, a2b3, a2b4). A range
// keeps the width of its lower bound, so "n[08-10]" is n08, n09 and n10.
//
// Where this package is stricter than Slurm 22.05, it returns an error
// rather than guess: an unclosed or stray bracket (Slurm reads "n1]" as a
// name), and the multi-dimensional "bgl[123x456]" boxes. Where Format
// differs from "scontrol show hostlistsorted": it writes each name once,
// and merges a plain number into a zero-padded range of its width.
//
// It is shared by the machine model, which names nodes, and the results
// writers, which print the nodes a job ran on.
package hostlist
