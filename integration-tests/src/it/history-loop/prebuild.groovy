// The fixture as a git work tree with one commit (what odrust records as the runs' commit until
// the patch is applied), and a history directory with a record cut short (goal 5 refuses it).
File base = new File("$basedir")
def git = { List<String> args ->
    def p = (['git', '-C', base.path] + args).execute()
    def out = new StringBuilder()
    def err = new StringBuilder()
    p.waitForProcessOutput(out, err)
    assert p.exitValue() == 0 : "git " + args + ": " + err
    out.toString()
}
new File(base, '.gitignore').text = '/target/\n/build.log\n/hist/\n/bad-hist/\n'
git(['init', '-q'])
git(['config', 'user.email', 'it@example.com'])
git(['config', 'user.name', 'odrust it'])
git(['config', 'commit.gpgsign', 'false'])
git(['add', '-A'])
git(['commit', '-q', '-m', 'fixture'])
File bad = new File(base, 'bad-hist')
bad.mkdirs()
new File(bad, '20261201T000000Z-aaaaaa.json').text = '{"schema_version": 1, "run_id": "20261201T000000Z-aaaaaa", "goal": "det'
return true
