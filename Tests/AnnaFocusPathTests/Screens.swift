import Anna
import AnnaFocusPaths
import AnnaTesting

/// The seed README's master screen: a table of items, named "master".
final class MasterScreen: HeadlessScreen {
    let table = HeadlessTable()
    let composeButton = HeadlessButton()

    override func viewDidLoad() {
        view.addSubview(table)
        view.addSubview(composeButton)
        analyzer.setSubAnalyzer(table.analyzer, for: "tableView")
        analyzer.setSubAnalyzer(composeButton.analyzer, for: "compose")
        analyzer.enable(naming: "master")
    }
}

/// The seed README's detail screen, named "detail", with a button.
final class DetailScreen: HeadlessScreen {
    let button = HeadlessButton()

    override func viewDidLoad() {
        view.addSubview(button)
        analyzer.setSubAnalyzer(button.analyzer, for: "button")
        analyzer.enable(naming: "detail")
    }
}

/// A screen that names itself and nothing else.
final class NamedScreen: HeadlessScreen {
    let name: String
    init(_ name: String) {
        self.name = name
        super.init()
    }
    override func viewDidLoad() {
        analyzer.enable(naming: name)
    }
}

/// The app: a manager with the spec's tasks, a recorder behind the service, and a
/// delegate that records on its own queue.
struct App {
    let recorder = RecordingProvider()
    let service: AnalyticsService
    let manager: Manager
    let delegate = RecordingManagerDelegate()
    let clock = TestClock()
    let application: HeadlessApplication

    init(tasks: [TaskSet] = [.masterDetail]) {
        service = AnalyticsService(providers: [recorder])
        manager = Manager(service: service, tasks: tasks, clock: clock.now)
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        application = HeadlessApplication(manager: manager)
    }
}

extension App {
    /// Shows a master screen in a navigation container with its rows displayed.
    func showMaster(rows: [String]) -> (MasterScreen, HeadlessNavigationController) {
        let master = MasterScreen()
        let navigation = HeadlessNavigationController(root: master)
        application.window.show(navigation)
        master.table.display(rows: rows)
        return (master, navigation)
    }
}
