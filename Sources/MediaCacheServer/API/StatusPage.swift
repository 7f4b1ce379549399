import Foundation
import MediaCache
import MediaCacheAPI

/// The HTML of `GET /`: every cached resource with a bar of its cached ranges, its size,
/// pinned state, last access, hit ratio and preloaded bytes played; every HLS asset with a bar
/// per variant and rendition of the seconds cached; offline downloads with their progress,
/// selection and pause, resume and remove buttons; overall statistics; the
/// preload jobs with their progress; and a player that plays any entry through the proxy. The
/// page refreshes its tables every few seconds without interrupting the player.
struct StatusPage {
    let entries: [EntryReport]
    let usage: StoreUsage
    let statistics: CacheStatistics
    let preloads: [PreloadJob]
    let downloads: [DownloadReport]
    let directory: String

    var html: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>MediaCache</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>\(Self.style)</style></head>
        <body>
        <h1>MediaCache</h1>
        <section id="totals">\(totals)</section>
        <section id="player" hidden><div id="now-playing"></div>
        <video id="video" controls playsinline></video><audio id="audio" controls></audio></section>
        <table><thead><tr><th>Resource</th><th>Cached ranges</th><th>Cached</th><th>Length</th>
        <th>Hit ratio</th><th>Preloaded (played)</th><th>Pinned</th><th>Last access</th><th></th></tr></thead>
        <tbody id="entries">\(rows)</tbody></table>
        <h2>Downloads</h2>
        <table><thead><tr><th>Title</th><th>State</th><th>Bytes</th><th>Seconds</th><th>Selection</th><th></th></tr></thead>
        <tbody id="downloads">\(downloadRows)</tbody></table>
        <h2>Preloads</h2>
        <table><thead><tr><th>Resource</th><th>State</th><th>Progress</th><th>Amount</th><th>Method</th><th>Note</th></tr></thead>
        <tbody id="preloads">\(preloadRows)</tbody></table>
        <script>\(Self.script)</script>
        </body></html>
        """
    }

    private var totals: String {
        let ratio = statistics.hitRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
        return """
            <dl>
            <div><dt>Resources</dt><dd id="entry-count">\(usage.entryCount)</dd></div>
            <div><dt>Cached</dt><dd>\(Self.bytes(usage.cachedBytes))</dd></div>
            <div><dt>Pinned</dt><dd>\(usage.pinnedCount) (\(Self.bytes(usage.pinnedBytes)))</dd></div>
            <div><dt>Hit ratio</dt><dd id="hit-ratio">\(ratio)</dd></div>
            <div><dt>Bytes saved</dt><dd id="bytes-saved">\(Self.bytes(statistics.bytesSaved))</dd></div>
            <div><dt>From origin</dt><dd>\(Self.bytes(statistics.bytesFromOrigin))</dd></div>
            <div><dt>Preloaded</dt><dd id="preloaded">\(Self.bytes(statistics.bytesPreloaded))</dd></div>
            <div><dt>Preloaded, played</dt><dd id="preloaded-played">\(Self.bytes(statistics.bytesPreloadedPlayed))</dd></div>
            <div><dt>Preloaded, unplayed</dt><dd id="preloaded-unplayed">\(Self.bytes(statistics.bytesPreloadedUnplayed))</dd></div>
            </dl>
            <p class="dir">\(Self.escape(directory))</p>
            """
    }

    private var rows: String {
        guard !entries.isEmpty else { return #"<tr><td colspan="9" class="empty">Nothing cached yet.</td></tr>"# }
        return entries.map(row).joined(separator: "\n")
    }

    private func row(_ report: EntryReport) -> String {
        if let asset = report.asset { return assetRow(report, asset) }
        let entry = report.entry
        let name = URL(string: entry.url)?.lastPathComponent ?? entry.url
        let percent = entry.percentCached.map { String(format: "%.0f%%", $0) } ?? ""
        let kind = entry.mimeType?.hasPrefix("audio/") == true ? "audio" : "video"
        let play =
            report.playPath.map {
                #"<button class="play" data-src="\#(Self.escape($0))" data-kind="\#(kind)" data-name="\#(Self.escape(name))">Play</button>"#
            } ?? ""
        return """
            <tr class="entry" data-key="\(Self.escape(entry.key.rawValue))">\
            <td class="name" title="\(Self.escape(entry.url))">\(Self.escape(name))</td>\
            <td>\(bar(report))</td>\
            <td>\(Self.bytes(entry.cachedBytes)) <span class="pct">\(percent)</span></td>\
            <td>\(entry.totalLength.map(Self.bytes) ?? "unknown")</td>\
            <td>\(report.statistics?.hitRatio.map { String(format: "%.0f%%", $0 * 100) } ?? "")</td>\
            <td>\(report.statistics.map(Self.preloaded) ?? "")</td>\
            <td>\(entry.isPinned ? "pinned" : "")</td>\
            <td><time datetime="\(entry.lastAccess.ISO8601Format())">\(entry.lastAccess.ISO8601Format())</time></td>\
            <td>\(play)</td></tr>
            """
    }

    /// An HLS asset: a bar per variant and rendition of the share of its seconds cached.
    private func assetRow(_ report: EntryReport, _ asset: AssetReport) -> String {
        let entry = report.entry
        let bars = asset.playlists.map { playlist in
            let share = playlist.seconds > 0 ? min(playlist.cachedSeconds / playlist.seconds, 1) * 100 : 0
            let label = playlist.name.isEmpty ? playlist.kind.rawValue : "\(playlist.kind.rawValue) \(playlist.name)"
            return #"<div class="playlist"><span>\#(Self.escape(label))</span>"#
                + String(format: #"<div class="bar"><i style="left:0;width:%.1f%%"></i></div>"#, share)
                + String(format: #"<span class="pct">%.0f of %.0f s</span></div>"#, playlist.cachedSeconds, playlist.seconds)
        }
        let play =
            report.playPath.map {
                #"<button class="play" data-src="\#(Self.escape($0))" data-kind="video" data-name="\#(Self.escape(entry.url))">Play</button>"#
            } ?? ""
        let lastAccess = (asset.lastAccess ?? entry.lastAccess).ISO8601Format()
        return """
            <tr class="entry asset" data-key="\(Self.escape(entry.key.rawValue))">\
            <td class="name" title="\(Self.escape(entry.url))">HLS \(Self.escape(URL(string: entry.url)?.lastPathComponent ?? entry.url))\
            <span class="pct">(\(asset.memberCount) resources)</span></td>\
            <td>\(bars.joined())</td>\
            <td>\(Self.bytes(asset.cachedBytes))</td><td>HLS</td>\
            <td>\(asset.statistics?.hitRatio.map { String(format: "%.0f%%", $0 * 100) } ?? "")</td>\
            <td>\(asset.statistics.map(Self.preloaded) ?? "")</td>\
            <td>\(entry.isPinned ? "pinned" : "")</td>\
            <td><time datetime="\(lastAccess)">\(lastAccess)</time></td>\
            <td>\(play)</td></tr>
            """
    }

    private static func preloaded(_ statistics: CacheStatistics) -> String {
        guard statistics.bytesPreloaded > 0 else { return "" }
        return "\(bytes(statistics.bytesPreloaded)) (\(bytes(statistics.bytesPreloadedPlayed)))"
    }

    private var downloadRows: String {
        guard !downloads.isEmpty else { return #"<tr><td colspan="6" class="empty">No downloads.</td></tr>"# }
        return downloads.map(downloadRow).joined(separator: "\n")
    }

    private func downloadRow(_ download: DownloadReport) -> String {
        func bar(_ done: Double, _ total: Double?) -> String {
            guard let total, total > 0 else { return "" }
            return String(format: #"<div class="bar"><i style="left:0;width:%.1f%%"></i></div>"#, min(done / total, 1) * 100)
        }
        let expected = download.expectedBytes.map { " of \(download.expectedIsEstimate ? "~" : "")\(Self.bytes($0))" } ?? ""
        let seconds = download.durationSeconds > 0 ? String(format: "%.0f of %.0f s", download.loadedSeconds, download.durationSeconds) : ""
        let variant = download.selection.variant.map {
            [$0.resolution, $0.bandwidth.map { "\($0 / 1000) kbit/s" }].compactMap { $0 }.joined(separator: " ")
        }
        let selection =
            ([variant] + download.selection.audio.map { "audio \($0.language ?? $0.name)" }
            + download.selection.subtitles.map { "subtitles \($0.language ?? $0.name)" }).compactMap { $0 }.joined(separator: ", ")
        let id = Self.escape(download.id)
        var buttons = ""
        if ["queued", "downloading"].contains(download.state) {
            buttons += #"<button class="download" data-action="pause" data-id="\#(id)">Pause</button>"#
        }
        if ["paused", "failed"].contains(download.state) {
            buttons += #"<button class="download" data-action="resume" data-id="\#(id)">Resume</button>"#
        }
        buttons += #"<button class="download" data-action="remove" data-id="\#(id)">Remove</button>"#
        return """
            <tr class="download" data-state="\(Self.escape(download.state))">\
            <td class="name" title="\(Self.escape(download.url))">\(Self.escape(download.title))</td>\
            <td>\(Self.escape(download.state))\(download.error.map { " <span class=\"pct\">\(Self.escape($0))</span>" } ?? "")</td>\
            <td>\(bar(Double(download.bytesOnDisk), download.expectedBytes.map(Double.init))) \(Self.bytes(download.bytesOnDisk))\(expected)</td>\
            <td>\(bar(download.loadedSeconds, download.durationSeconds)) \(seconds)</td>\
            <td>\(Self.escape(download.isFile ? "file" : selection))</td><td>\(buttons)</td></tr>
            """
    }

    private var preloadRows: String {
        guard !preloads.isEmpty else { return #"<tr><td colspan="6" class="empty">No preloads.</td></tr>"# }
        return preloads.map(preloadRow).joined(separator: "\n")
    }

    private func preloadRow(_ job: PreloadJob) -> String {
        let progress =
            job.fractionDone.map { fraction in
                String(format: #"<div class="bar"><i style="left:0;width:%.1f%%"></i></div>"#, min(fraction, 1) * 100)
            } ?? ""
        let done = ByteCountText.progress(job.bytesDone, of: job.bytesTarget)
        return """
            <tr class="preload" data-state="\(job.state.rawValue)">\
            <td class="name" title="\(Self.escape(job.url.absoluteString))">\(Self.escape(job.url.lastPathComponent))</td>\
            <td>\(job.state.rawValue)</td><td>\(progress) \(done)</td><td>\(Self.escape(job.amount.description))</td>\
            <td>\(Self.escape(job.method ?? ""))</td><td>\(Self.escape(job.error ?? ""))</td></tr>
            """
    }

    /// Cached ranges as segments over the resource's length (or over what is cached while the
    /// length is unknown).
    private func bar(_ report: EntryReport) -> String {
        let scale = Double(report.entry.totalLength ?? report.cachedRanges.last?.upperBound ?? 1)
        let segments = report.cachedRanges.prefix(200).map { range in
            let left = Double(range.lowerBound) / scale * 100
            let width = max(Double(range.length) / scale * 100, 0.3)
            return String(format: #"<i style="left:%.2f%%;width:%.2f%%"></i>"#, left, width)
        }
        return #"<div class="bar">\#(segments.joined())</div>"#
    }

    static func bytes(_ count: Int64) -> String {
        ByteCountText.string(count)
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let style = """
        body{font:14px system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.4em}
        dl{display:flex;gap:2em;flex-wrap:wrap}dl div{min-width:7em}dt{color:#666;font-size:.85em}dd{margin:0;font-size:1.3em}
        .dir{color:#888;font-size:.85em}table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #eee;white-space:nowrap}
        td.name{max-width:24em;overflow:hidden;text-overflow:ellipsis}
        .bar{position:relative;width:16em;height:.8em;background:#e6e6e6;border-radius:3px;overflow:hidden}
        .bar i{position:absolute;top:0;bottom:0;background:#2f7de1}.pct{color:#888}.empty{color:#888}
        .playlist{display:flex;gap:.6em;align-items:center;margin:.15em 0}.playlist>span:first-child{min-width:14em}
        #player{margin:1em 0}#player video{max-width:640px;display:block}[hidden]{display:none!important}
        """

    /// Plays entries through the proxy (paths relative to the page, so a `/t/<token>/` prefix
    /// is kept) and refreshes the totals and the table every three seconds.
    private static let script = """
        const base = location.pathname.replace(/\\/$/, '');
        function bind() {
          for (const button of document.querySelectorAll('button.play')) {
            button.onclick = () => play(button.dataset.src, button.dataset.kind, button.dataset.name);
          }
          for (const button of document.querySelectorAll('button.download')) {
            button.onclick = async () => {
              const path = base + '/api/downloads/' + encodeURIComponent(button.dataset.id);
              const action = button.dataset.action;
              await fetch(action === 'remove' ? path : path + '/' + action, {method: action === 'remove' ? 'DELETE' : 'POST'});
              refresh();
            };
          }
        }
        function play(src, kind, name) {
          const player = document.getElementById('player');
          const video = document.getElementById('video'), audio = document.getElementById('audio');
          const element = kind === 'audio' ? audio : video, other = kind === 'audio' ? video : audio;
          other.pause(); other.hidden = true; element.hidden = false; player.hidden = false;
          document.getElementById('now-playing').textContent = name;
          element.src = base + src;
          element.play().catch(() => {});
        }
        async function refresh() {
          try {
            const response = await fetch(location.href, {cache: 'no-store'});
            const page = new DOMParser().parseFromString(await response.text(), 'text/html');
            for (const id of ['totals', 'entries', 'downloads', 'preloads']) {
              document.getElementById(id).innerHTML = page.getElementById(id).innerHTML;
            }
            bind();
          } catch (error) {}
        }
        bind();
        setInterval(refresh, 3000);
        """
}
