package slurmconf

// The options Slurm 22.05 reads: slurm_conf_options in
// src/common/read_config.c, and the keys of a NodeName line
// (_parse_nodename) and a PartitionName line (_parse_partitionname). A key
// outside these lists is an error, as it is for slurmctld ("Parsing error
// at unrecognized key").

// topKeys are the options of slurm.conf, spelled as Slurm spells them.
var topKeys = []string{
	"AccountingStorageTRES", "AccountingStorageEnforce", "AccountingStorageExternalHost",
	"AccountingStorageHost", "AccountingStorageBackupHost", "AccountingStorageLoc",
	"AccountingStorageParameters", "AccountingStoragePass", "AccountingStoragePort",
	"AccountingStorageType", "AccountingStorageUser", "AccountingStoreFlags",
	"AccountingStoreJobComment", "AcctGatherEnergyType", "AcctGatherNodeFreq",
	"AcctGatherProfileType", "AcctGatherInterconnectType", "AcctGatherInfinibandType",
	"AcctGatherFilesystemType", "AllowSpecResourcesUsage", "AuthAltTypes", "AuthAltParameters",
	"AuthInfo", "AuthType", "BackupAddr", "BackupController", "BatchStartTimeout", "BcastExclude",
	"BcastParameters", "BurstBufferParameters", "BurstBufferType", "CoreSpecPlugin",
	"CliFilterPlugins", "ClusterName", "CommunicationParameters", "CompleteWait", "ControlAddr",
	"ControlMachine", "CpuFreqDef", "CpuFreqGovernors", "CredType", "CryptoType", "DebugFlags",
	"DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode", "DependencyParameters",
	"DisableRootJobs", "EioTimeout", "EnforcePartLimits", "Epilog", "EpilogMsgTime",
	"EpilogSlurmctld", "ExtSensorsType", "ExtSensorsFreq", "FairShareDampeningFactor", "FastSchedule",
	"FederationParameters", "FirstJobId", "GetEnvTimeout", "GresTypes", "GroupUpdateForce",
	"GroupUpdateTime", "GpuFreqDef", "HealthCheckInterval", "HealthCheckNodeState",
	"HealthCheckProgram", "InteractiveStepOptions", "InactiveLimit", "JobAcctGatherType",
	"JobAcctGatherFrequency", "JobAcctGatherParams", "JobCompHost", "JobCompLoc", "JobCompParams",
	"JobCompPass", "JobCompPort", "JobCompType", "JobContainerType", "JobCompUser",
	"JobCredentialPrivateKey", "JobCredentialPublicCertificate", "JobFileAppend", "JobRequeue",
	"JobSubmitPlugins", "KeepAliveTime", "KillOnBadExit", "KillWait", "LaunchParameters",
	"LaunchType", "Licenses", "LogTimeFormat", "MailDomain", "MailProg", "MaxArraySize", "MaxDBDMsgs",
	"MaxJobCount", "MaxNodeCount", "MaxJobId", "MaxMemPerCPU", "MaxMemPerNode", "MaxStepCount",
	"MaxTasksPerNode", "MCSParameters", "MCSPlugin", "MessageTimeout", "MinJobAge", "MpiDefault",
	"MpiParams", "NodeFeaturesPlugins", "OverTimeLimit", "PluginDir", "PlugStackConfig",
	"PowerParameters", "PowerPlugin", "PreemptMode", "PreemptType", "PreemptExemptTime",
	"PrEpParameters", "PrEpPlugins", "PriorityDecayHalfLife", "PriorityCalcPeriod",
	"PriorityFavorSmall", "PriorityMaxAge", "PriorityParameters", "PriorityUsageResetPeriod",
	"PriorityType", "PriorityFlags", "PrioritySiteFactorParameters", "PrioritySiteFactorPlugin",
	"PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairshare", "PriorityWeightJobSize",
	"PriorityWeightPartition", "PriorityWeightQOS", "PriorityWeightTRES", "PrivateData",
	"ProctrackType", "Prolog", "PrologSlurmctld", "PrologEpilogTimeout", "PrologFlags",
	"PropagatePrioProcess", "PropagateResourceLimitsExcept", "PropagateResourceLimits",
	"RebootProgram", "ReconfigFlags", "RequeueExit", "RequeueExitHold", "ResumeFailProgram",
	"ResumeProgram", "ResumeRate", "ResumeTimeout", "ResvEpilog", "ResvOverRun", "ResvProlog",
	"ReturnToService", "RoutePlugin", "SallocDefaultCommand", "SbcastParameters", "SchedulerAuth",
	"SchedulerParameters", "SchedulerTimeSlice", "SchedulerType", "ScronParameters", "SelectType",
	"SelectTypeParameters", "SlurmUser", "SlurmdUser", "SlurmctldAddr", "SlurmctldDebug",
	"SlurmctldLogFile", "SlurmctldPidFile", "SlurmctldPlugstack", "SlurmctldPort",
	"SlurmctldPrimaryOffProg", "SlurmctldPrimaryOnProg", "SlurmctldSyslogDebug", "SlurmctldTimeout",
	"SlurmctldParameters", "SlurmdDebug", "SlurmdLogFile", "SlurmdParameters", "SlurmdPidFile",
	"SlurmdPort", "SlurmdSpoolDir", "SlurmdSyslogDebug", "SlurmdTimeout", "SlurmSchedLogFile",
	"SlurmSchedLogLevel", "SrunEpilog", "SrunProlog", "SrunPortRange", "StateSaveLocation",
	"SuspendExcNodes", "SuspendExcParts", "SuspendProgram", "SuspendRate", "SuspendTime",
	"SuspendTimeout", "SwitchParameters", "SwitchType", "TaskEpilog", "TaskProlog", "TaskPlugin",
	"TaskPluginParam", "TCPTimeout", "TmpFS", "TopologyParam", "TopologyPlugin", "TrackWCKey",
	"TreeWidth", "UnkillableStepProgram", "UnkillableStepTimeout", "UsePAM", "VSizeFactor",
	"WaitTime", "DownNodes", "FrontendName", "NodeName", "NodeSet", "PartitionName", "SlurmctldHost",
}

// nodeKeys are the keys of a NodeName line after its NodeName=.
var nodeKeys = []string{
	"BcastAddr", "Boards", "CoreSpecCount", "CoresPerSocket", "CPUs", "CPUSpecList", "CpuBind", "Feature",
	"Features", "Gres", "MemSpecLimit", "NodeAddr", "NodeHostname", "Port", "Procs", "RealMemory", "Reason",
	"Sockets", "SocketsPerBoard", "State", "ThreadsPerCore", "TmpDisk", "TRESWeights", "Weight",
}

// partitionKeys are the keys of a PartitionName line after its
// PartitionName=.
var partitionKeys = []string{
	"AllocNodes", "AllowAccounts", "AllowGroups", "AllowQos", "Alternate", "CpuBind", "DefCPUPerGPU",
	"DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode", "Default", "DefaultTime", "DenyAccounts", "DenyQos",
	"DisableRootJobs", "ExclusiveUser", "GraceTime", "Hidden", "LLN", "MaxCPUsPerNode", "MaxMemPerCPU",
	"MaxMemPerNode", "MaxTime", "MaxNodes", "MinNodes", "Nodes", "OverSubscribe", "OverTimeLimit",
	"PreemptMode", "Priority", "PriorityJobFactor", "PriorityTier", "QOS", "RootOnly", "ReqResv",
	"ResumeTimeout", "SelectTypeParameters", "Shared", "State", "SuspendTime", "SuspendTimeout",
	"TRESBillingWeights",
}

// lineKeys are the options whose line holds further keys of their own
// (S_P_ARRAY and S_P_LINE in read_config.c): the rest of such a line is
// read as key=value pairs.
var lineKeys = map[string]bool{
	"NodeName": true, "PartitionName": true, "DownNodes": true, "FrontendName": true, "NodeSet": true,
	"SlurmctldHost": true,
}

// canon maps each key of list, in lower case, to its spelling.
func canon(list []string) map[string]string {
	m := make(map[string]string, len(list))
	for _, k := range list {
		m[lower(k)] = k
	}
	return m
}

var (
	topCanon       = canon(topKeys)
	nodeCanon      = canon(nodeKeys)
	partitionCanon = canon(partitionKeys)
)
