extension Preloader {
    /// How a ``Preloader`` schedules and paces its jobs.
    public struct Configuration: Sendable {
        /// How many jobs fetch at once. Default: 2.
        public var maxConcurrentJobs = 2
        /// A job fetches in steps of this many bytes and checks between steps that no player is
        /// waiting for the network; it bounds what a preload has in flight when playback starts.
        /// Default: 256 KiB.
        public var stepSize: Int64 = 256 << 10
        /// How long no player must have waited for the network before preloads go on. Default:
        /// 250 ms.
        public var playbackQuietPeriod: Duration = .milliseconds(250)
        /// The bitrate seconds are estimated from when the container cannot be read (types other
        /// than MP4 and MP3, or malformed files), in bits per second. Default: 4 Mbit/s.
        public var assumedBitrate: Double = 4_000_000
        /// How many ended jobs ``Preloader/jobs`` keeps reporting. Default: 100.
        public var endedJobsKept = 100
        /// Planners for URLs that are more than one resource, asked in order (see
        /// ``PreloadPlanner``). Default: none; the proxy and the Apple adapter add HLS.
        public var planners: [any PreloadPlanner] = []

        /// Creates the default configuration.
        public init() {}
    }
}

/// The former name of ``Preloader/Configuration``.
@available(*, deprecated, renamed: "Preloader.Configuration")
public typealias PreloaderConfiguration = Preloader.Configuration
