// Package slurmprio computes Slurm's multifactor job priority (the
// priority/multifactor plugin of Slurm 22.05, the version Debian 12 ships):
// a weighted sum of the age, fairshare, job size, partition and QOS
// factors, each in [0, 1], truncated to an integer, plus schedsweep's extra
// estimate-accuracy factor (the PSP paper's classes, which its authors
// added to Slurm's multifactor plugin as one more factor).
//
// The policy "slurm" (package policies) asks a Calculator for the
// priority of every waiting job; the Calculator charges usage and
// recomputes priorities as Slurm's decay thread does, once every
// PriorityCalcPeriod, and sets a job's first priority when it is
// submitted.
//
// Parameters carry Slurm's slurm.conf names in snake case
// (PriorityWeightAge is priority_weight_age). Every time is in seconds,
// whatever unit slurm.conf uses for it.
package slurmprio
