# ERROR: Missing experiment block # ERROR: Missing cluster block # ERROR: Missing sweep block
# A file with none of the required blocks: every one is reported, at the top.

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}
