extension SyncSession {
    /// `--setup [REMOTE-URL]`: adds the remote as `origin` (an `origin` with another URL is left
    /// alone and refused), fetches it, and makes the branch there that this one follows its
    /// upstream: the branch of the same name, else the remote's only branch, else (an empty remote)
    /// the same name, which the first push creates.
    mutating func setUpRemote(_ url: String) throws(CLIError) {
        if !url.isEmpty {
            if let existing = configuration["remote.origin.url"] {
                guard existing == url else { throw CLIError(.remoteInUse(url: invocation.shown(existing))) }
            } else {
                let added = git.run(["remote", "add", "origin", url])
                guard added.succeeded else { throw CLIError(.gitFailed(command: "remote add", reason: added.reason)) }
                configuration["remote.origin.url"] = url
                done.append("added the remote origin: \(url)")
            }
        }
        guard configuration["branch.\(branch).remote"] == nil else { return }
        let remotes = configuration.keys.filter { $0.hasPrefix("remote.") && $0.hasSuffix(".url") }
            .map { String($0.dropFirst(7).dropLast(4)) }.sorted()
        guard let remote = remotes.contains("origin") ? "origin" : remotes.first else {
            throw CLIError(.noRemote(repository: repositoryName))
        }
        try fetch(Upstream(remote: remote, branch: "refs/heads/\(branch)"))
        let listed = git.run(["for-each-ref", "--format=%(refname)", "refs/remotes/\(remote)/"]).text
            .split(separator: "\n").map { String($0.dropFirst("refs/remotes/\(remote)/".count)) }.filter { $0 != "HEAD" }
        let name = listed.contains(branch) || listed.count != 1 ? branch : listed[0]
        for (key, value) in [("branch.\(branch).remote", remote), ("branch.\(branch).merge", "refs/heads/\(name)")] {
            let set = git.run(["config", key, value])
            guard set.succeeded else { throw CLIError(.gitFailed(command: "config \(key)", reason: set.reason)) }
            configuration[key] = value
        }
        done.append("\(branch) follows \(remote)/\(name)")
    }
}
