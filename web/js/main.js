/**
 * @file main: the composition root. It registers the views, wires the modules and starts.
 */
(function (Tichu) {
  'use strict';

  Tichu.ViewManager.register('loading', Tichu.LoadingView);
  Tichu.ViewManager.register('login', Tichu.LoginView);
  Tichu.ViewManager.register('lobby', Tichu.LobbyView);
  Tichu.ViewManager.register('table', Tichu.TableView);
  Tichu.ViewManager.register('scores', Tichu.ScoreView);
  Tichu.ViewManager.register('history', Tichu.HistoryView);
  Tichu.ViewManager.register('player', Tichu.PlayerView);
  Tichu.ViewManager.register('replay', Tichu.ReplayView);
  Tichu.ViewManager.init();
  Tichu.SoundManager.init();
  Tichu.AppController.init();
  Tichu.HistoryController.init();
  Tichu.ReplayController.init();
  Tichu.AnalysisController.init();
  Tichu.AnalysisView.init();
  Tichu.WatchView.init();
  Tichu.IdleSeats.init();
  Tichu.IdleView.init();
  Tichu.SeatRulesView.init();
  Tichu.Spectate.init();
  Tichu.AppController.start();
})(window.Tichu = window.Tichu || {});
