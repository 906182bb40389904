//===- Commands.h - Subcommands of the tensorop tool ------------*- C++ -*-===//

#ifndef TENSOROP_TOOLS_COMMANDS_H
#define TENSOROP_TOOLS_COMMANDS_H

namespace tensorop {
void registerBenchCommand();
/// True if `tensorop bench` was given on the command line.
bool benchSubcommand();
int runBench();
bool genSubcommand();
int runGen();
bool workerSubcommand();
int runWorker();
bool tuneSubcommand();
int runTune();
bool dbSubcommand();
int runDb();
} // namespace tensorop

#endif
