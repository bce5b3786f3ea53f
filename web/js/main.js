/**
 * @file main: the composition root, and the page's one entry module (index.html loads it as
 * `<script type="module">`; it imports the rest). It registers the views, wires the modules,
 * publishes the debug namespace `window.Tichu` and starts.
 */

import { AnalysisController } from './analysis-controller.js';
import { AnalysisState } from './analysis-state.js';
import { AppController } from './app-controller.js';
import { EventBus } from './event-bus.js';
import { Events } from './events.js';
import { HistoryController } from './history-controller.js';
import { IdleSeats } from './idle-seats.js';
import { Line } from './line.js';
import { ReplayController } from './replay-controller.js';
import { State } from './state.js';
import { SoundManager } from './sound.js';
import { Spectate } from './spectate.js';
import { ViewManager } from './view-manager.js';
import { AnalysisView } from './views/analysis-view.js';
import { HistoryView } from './views/history-view.js';
import { IdleView } from './views/idle-view.js';
import { LoadingView } from './views/loading-view.js';
import { LineView } from './views/line-view.js';
import { LobbyView } from './views/lobby-view.js';
import { LoginView } from './views/login-view.js';
import { PlayerView } from './views/player-view.js';
import { PuzzleView } from './views/puzzle-view.js';
import { ReplayView } from './views/replay-view.js';
import { ScoreView } from './views/score-view.js';
import { SeatRulesView } from './views/seat-rules-view.js';
import { TableView } from './views/table-view.js';
import { WatchView } from './views/watch-view.js';

ViewManager.register('loading', LoadingView);
ViewManager.register('login', LoginView);
ViewManager.register('lobby', LobbyView);
ViewManager.register('table', TableView);
ViewManager.register('scores', ScoreView);
ViewManager.register('history', HistoryView);
ViewManager.register('player', PlayerView);
ViewManager.register('replay', ReplayView);
ViewManager.init();
SoundManager.init();
AppController.init();
HistoryController.init();
ReplayController.init();
AnalysisController.init();
AnalysisView.init();
Line.init();
LineView.init();
PuzzleView.init();
WatchView.init();
IdleSeats.init();
IdleView.init();
SeatRulesView.init();
Spectate.init();
AppController.start();

/**
 * The debug namespace: a few modules on `window.Tichu`, read-only, for the browser tests
 * (tests/web read `Tichu.State`, emit intents on `Tichu.EventBus`, ask
 * `Tichu.AnalysisController.polling()`) and for a look from the console. No module reads it:
 * they import each other.
 */
Object.defineProperty(window, 'Tichu', {
  value: Object.freeze({ AnalysisController, AnalysisState, EventBus, Events, State }),
  enumerable: true
});
