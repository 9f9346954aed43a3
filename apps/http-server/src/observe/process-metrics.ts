import { monitorEventLoopDelay } from "node:perf_hooks"
import { family, sample } from "./prometheus-text.ts"

/**
 * The process: how late the event loop runs timers (sampled every 10 ms by Node, summarised since the
 * previous scrape), its heap and its resident memory.
 */
export const processMetrics = () => {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const render = (): string => {
    const memory = process.memoryUsage()
    // Node reports nanoseconds; a histogram never fed reports huge sentinel values, shown as 0.
    const seconds = (nanos: number) => (delay.count === 0 ? 0 : nanos / 1e9)
    const text = family("hedgerow_event_loop_delay_p50_seconds", "gauge", "Median event-loop delay since the previous scrape.") +
      sample("hedgerow_event_loop_delay_p50_seconds", [], seconds(delay.percentile(50))) +
      family("hedgerow_event_loop_delay_p99_seconds", "gauge", "99th percentile of the event-loop delay since the previous scrape.") +
      sample("hedgerow_event_loop_delay_p99_seconds", [], seconds(delay.percentile(99))) +
      family("hedgerow_event_loop_delay_max_seconds", "gauge", "Longest event-loop delay since the previous scrape.") +
      sample("hedgerow_event_loop_delay_max_seconds", [], seconds(delay.max)) +
      family("hedgerow_process_heap_used_bytes", "gauge", "V8 heap in use.") +
      sample("hedgerow_process_heap_used_bytes", [], memory.heapUsed) +
      family("hedgerow_process_heap_total_bytes", "gauge", "V8 heap reserved.") +
      sample("hedgerow_process_heap_total_bytes", [], memory.heapTotal) +
      family("hedgerow_process_resident_memory_bytes", "gauge", "Resident set size of the process.") +
      sample("hedgerow_process_resident_memory_bytes", [], memory.rss) +
      family("hedgerow_process_uptime_seconds", "gauge", "Seconds since the process started.") +
      sample("hedgerow_process_uptime_seconds", [], process.uptime())
    delay.reset()
    return text
  }
  return { render, stop: () => delay.disable() }
}
